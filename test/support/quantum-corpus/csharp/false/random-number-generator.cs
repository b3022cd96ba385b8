using System;
using System.Security.Cryptography;

namespace Api.Keys
{
    public static class ApiKeyGenerator
    {
        public static string Create(int bytes = 32)
        {
            var buffer = RandomNumberGenerator.GetBytes(bytes);
            return "ak_" + Convert.ToBase64String(buffer).TrimEnd('=');
        }
    }
}
