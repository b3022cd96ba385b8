using System;
using System.Security.Cryptography;

namespace Webhooks.Outbound
{
    internal sealed class WebhookKeyLoader
    {
        public RSA Load(string base64Der)
        {
            var rsa = RSA.Create(); // expect: key-generation RSA
            rsa.ImportRSAPrivateKey(Convert.FromBase64String(base64Der), out _); // expect: key-material RSA
            return rsa;
        }

        public void LoadInto(RSA target, byte[] spki) =>
            target.ImportSubjectPublicKeyInfo(spki, out _); // expect: key-material RSA
    }
}
