using System.Security.Cryptography;

namespace Accounts
{
    public static class PasswordHasher
    {
        private const int Iterations = 600_000;

        public static byte[] Hash(string password, byte[] salt) =>
            Rfc2898DeriveBytes.Pbkdf2(password, salt, Iterations, HashAlgorithmName.SHA256, 32);
    }
}
