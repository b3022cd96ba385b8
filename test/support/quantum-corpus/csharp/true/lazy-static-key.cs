using System;
using System.Security.Cryptography;

namespace Cache.Signing
{
    public static class SharedKey
    {
        private static readonly Lazy<ECDsa> Key = new(() => ECDsa.Create(ECCurve.NamedCurves.nistP521)); // expect: key-generation ECDSA

        public static byte[] Sign(byte[] data) => Key.Value.SignData(data, HashAlgorithmName.SHA512); // expect: signature ECDSA
    }
}
