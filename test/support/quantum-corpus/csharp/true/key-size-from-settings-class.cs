using System.Security.Cryptography;

namespace Identity.Keys
{
    internal static class CryptoSettings
    {
        public const int RsaBits = 3072;
        public const string Curve = "nistP384";
    }

    internal sealed class KeyMaterialFactory
    {
        public RSA Rsa() => RSA.Create(CryptoSettings.RsaBits); // expect: key-generation RSA

        public ECDsa Ec() => ECDsa.Create(ECCurve.CreateFromFriendlyName(CryptoSettings.Curve)); // expect: key-generation ECDSA
    }
}
