using System.Security.Cryptography;

namespace Secrets.Store
{
    public sealed class SecretBox
    {
        private readonly byte[] _key;

        public SecretBox(byte[] key) => _key = key;

        public byte[] Encrypt(byte[] plaintext, byte[] nonce, byte[] tag)
        {
            using var aes = new AesGcm(_key, 16);
            var ciphertext = new byte[plaintext.Length];
            aes.Encrypt(nonce, plaintext, ciphertext, tag);
            return ciphertext;
        }

        public byte[] Decrypt(byte[] ciphertext, byte[] nonce, byte[] tag)
        {
            using var aes = new AesGcm(_key, 16);
            var plaintext = new byte[ciphertext.Length];
            aes.Decrypt(nonce, ciphertext, tag, plaintext);
            return plaintext;
        }
    }
}
