using System.Security.Cryptography;

namespace Payments.Tokenization
{
    public sealed class CardNumberEncryptor
    {
        private readonly RSA _publicKey;

        public CardNumberEncryptor(RSA publicKey)
        {
            _publicKey = publicKey;
        }

        public byte[] Encrypt(byte[] pan)
        {
            return _publicKey
                .Encrypt( // expect: encryption RSA
                    pan,
                    RSAEncryptionPadding.OaepSHA256);
        }
    }
}
