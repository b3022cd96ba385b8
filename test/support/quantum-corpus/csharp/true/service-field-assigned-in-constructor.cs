using System.Security.Cryptography;

namespace Orders.Integration
{
    public sealed class PartnerMessageSigner : IDisposable
    {
        private readonly AsymmetricAlgorithm _key;

        public PartnerMessageSigner(string pem)
        {
            var rsa = RSA.Create(); // expect: key-generation RSA
            rsa.ImportFromPem(pem); // expect: key-material RSA
            _key = rsa;
        }

        public byte[] Sign(byte[] message)
        {
            var rsa = (RSA)_key;
            return rsa.SignData(message, HashAlgorithmName.SHA512, RSASignaturePadding.Pss); // expect: signature RSA
        }

        public void Dispose() => _key.Dispose();
    }
}
