using System.Security.Cryptography;

namespace Wallet.Keys
{
    public sealed class ImportedKey
    {
        public ECDsa FromRaw(byte[] d, byte[] x, byte[] y)
        {
            var parameters = new ECParameters
            {
                Curve = ECCurve.NamedCurves.nistP256,
                D = d,
                Q = new ECPoint { X = x, Y = y },
            };
            return ECDsa.Create(parameters); // expect: key-material ECDSA
        }

        public RSA FromModulus(byte[] n, byte[] e) =>
            RSA.Create(new RSAParameters { Modulus = n, Exponent = e }); // expect: key-material RSA
    }
}
