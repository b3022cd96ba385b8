using System.IdentityModel.Tokens.Jwt;
using Xunit;

namespace Auth.Tests
{
    public class TokenHeaderTests
    {
        [Fact]
        public void Header_names_rs256()
        {
            var token = new JwtSecurityTokenHandler().ReadJwtToken(Fixtures.SampleToken);
            Assert.Equal("RS256", token.Header.Alg);
            Assert.Contains("RSA", token.Header.Kid);
        }
    }
}
