using System.IdentityModel.Tokens.Jwt;
using System.Security.Cryptography;
using Microsoft.Extensions.Options;
using Microsoft.IdentityModel.Tokens;

namespace Auth.Server.Services
{
    public class TokenService : ITokenService
    {
        private readonly JwtOptions _options;

        public TokenService(IOptions<JwtOptions> options) => _options = options.Value;

        public string Issue(ClaimsIdentity identity)
        {
            var rsa = RSA.Create(); // expect: key-generation RSA
            rsa.ImportFromPem(File.ReadAllText(_options.PrivateKeyPath)); // expect: key-material RSA
            var key = new RsaSecurityKey(rsa) { KeyId = _options.KeyId }; // expect: key-material RSA
            var credentials = new SigningCredentials(key, SecurityAlgorithms.RsaSha256); // expect: signature RSA
            var token = new JwtSecurityToken(_options.Issuer, _options.Audience, identity.Claims,
                expires: DateTime.UtcNow.AddMinutes(15), signingCredentials: credentials);
            return new JwtSecurityTokenHandler().WriteToken(token);
        }
    }
}
