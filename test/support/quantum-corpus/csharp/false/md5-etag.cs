using System;
using System.Security.Cryptography;

namespace Cdn.Edge
{
    public static class ETag
    {
        public static string For(byte[] body) => "\"" + Convert.ToHexString(MD5.HashData(body)) + "\"";
    }
}
