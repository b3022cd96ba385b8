using Microsoft.IdentityModel.Tokens;

namespace Auth.Tokens
{
    public static class TokenEncryption
    {
        public static EncryptingCredentials For(SecurityKey recipientKey) =>
            new EncryptingCredentials( // expect: encryption RSA
                recipientKey,
                SecurityAlgorithms.RsaOAEP,
                SecurityAlgorithms.Aes128CbcHmacSha256);
    }
}
