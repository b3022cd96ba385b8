using System.Security.Cryptography;

namespace Cli.Commands
{
    public sealed class ExportKeyCommand
    {
        public (string Public, string Private) Run(int bits)
        {
            using RSA rsa = RSA.Create(bits); // expect: key-generation RSA
            var publicPem = rsa.ExportRSAPublicKeyPem(); // expect: key-material RSA
            var privatePem = rsa.ExportPkcs8PrivateKeyPem(); // expect: key-material RSA
            return (publicPem, privatePem);
        }
    }
}
