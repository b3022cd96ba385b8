using System;
using System.Security.Cryptography;
using System.Text;

namespace Storage.Blobs
{
    public static class ContentAddress
    {
        public static string Of(byte[] content)
        {
            using var sha = SHA256.Create();
            return Convert.ToHexString(sha.ComputeHash(content));
        }

        public static string Quick(string text) =>
            Convert.ToHexString(SHA512.HashData(Encoding.UTF8.GetBytes(text)));
    }
}
