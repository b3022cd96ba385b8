using System.Security.Cryptography;

namespace Legacy.Licensing
{
    internal sealed class LicenseKeyFactory
    {
        private const int KeySize = 1024;

        public byte[] CreateLicenseKeyBlob()
        {
            using (var rsa = RSA.Create(KeySize)) // expect: key-generation RSA
            {
                return rsa.ExportRSAPrivateKey(); // expect: key-material RSA
            }
        }
    }
}
