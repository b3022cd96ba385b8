using System.Security.Cryptography;
using System.Text;
using Microsoft.IdentityModel.Tokens;

namespace Internal.Auth
{
    public class ServiceTokenFactory
    {
        public SigningCredentials Credentials(string secret)
        {
            var key = new SymmetricSecurityKey(Encoding.UTF8.GetBytes(secret));
            return new SigningCredentials(key, SecurityAlgorithms.HmacSha256);
        }

        public byte[] Mac(byte[] key, byte[] body)
        {
            using var hmac = new HMACSHA256(key);
            return hmac.ComputeHash(body);
        }
    }
}
