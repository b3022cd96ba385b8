using System.Security.Cryptography;

namespace Signing.Abstractions
{
    public static class AlgorithmDispatch
    {
        public static byte[] Sign(AsymmetricAlgorithm key, byte[] data)
        {
            if (key is RSA rsa)
            {
                return rsa.SignData(data, HashAlgorithmName.SHA256, RSASignaturePadding.Pss); // expect: signature RSA
            }

            switch (key)
            {
                case ECDsa ecdsa:
                    return ecdsa.SignData(data, HashAlgorithmName.SHA256); // expect: signature ECDSA
                default:
                    return ((DSA)key).SignData(data, HashAlgorithmName.SHA1); // expect: signature DSA
            }
        }
    }
}
