using System.Security.Cryptography.X509Certificates;

namespace Hosting
{
    public static class CertificateInfo
    {
        public static string Thumbprint(string path)
        {
            using var certificate = new X509Certificate2(path);
            return certificate.Thumbprint + " " + certificate.SignatureAlgorithm.FriendlyName;
        }
    }
}
