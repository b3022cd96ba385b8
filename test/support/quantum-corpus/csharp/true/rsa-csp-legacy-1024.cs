using System;
using System.Security.Cryptography;
using System.Text;

namespace Acme.Legacy
{
    public class PasswordVault
    {
        public string Protect(string secret)
        {
            var provider = new RSACryptoServiceProvider(1024); // expect: key-generation RSA
            var cipher = provider.Encrypt(Encoding.UTF8.GetBytes(secret), true); // expect: encryption RSA
            File.WriteAllText("vault.xml", provider.ToXmlString(true)); // expect: key-material RSA
            return Convert.ToBase64String(cipher);
        }
    }
}
