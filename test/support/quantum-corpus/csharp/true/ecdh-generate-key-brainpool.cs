using System.Security.Cryptography;

namespace Automotive.V2X
{
    internal sealed class SessionKeys
    {
        internal static ECDiffieHellman Fresh()
        {
            var ecdh = ECDiffieHellman.Create(); // expect: key-agreement ECDH
            ecdh.GenerateKey(ECCurve.NamedCurves.brainpoolP256r1); // expect: key-agreement ECDH
            return ecdh;
        }
    }
}
