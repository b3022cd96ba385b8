using System.Security.Cryptography;

namespace Compat
{
    public class ClientKeys
    {
        private static int LegacyKeySize()
        {
            return 1024;
        }

        public RSACryptoServiceProvider Build()
        {
            return new RSACryptoServiceProvider(LegacyKeySize()); // expect: key-generation RSA
        }
    }
}
