using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace EInvoicing.Signing
{
    public class XadesSigner
    {
        private readonly X509Certificate2 _certificate;

        public XadesSigner(X509Certificate2 certificate) => _certificate = certificate;

        public byte[] SignDigest(byte[] digest)
        {
            using var key = _certificate.GetRSAPrivateKey(); // expect: key-material RSA
            return key.SignHash(digest, HashAlgorithmName.SHA256, RSASignaturePadding.Pss); // expect: signature RSA
        }
    }
}
