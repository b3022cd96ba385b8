using System.Security.Cryptography;
using Microsoft.IdentityModel.Tokens;

namespace Testing.Fakes;

public static class FakeIssuer
{
    public static SigningCredentials Credentials { get; } =
        new SigningCredentials(new RsaSecurityKey(RSA.Create(2048)), "RS256"); // expect: key-material RSA; key-generation RSA; signature RSA
}
