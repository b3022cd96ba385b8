using System.Security.Cryptography;
using Microsoft.IdentityModel.Tokens;

public sealed class DeviceTokenSigner
{
    private const string Algorithm = SecurityAlgorithms.EcdsaSha256;
    private readonly ECDsa _ecdsa;

    public DeviceTokenSigner(ECDsa ecdsa) => _ecdsa = ecdsa;

    public SigningCredentials Credentials() =>
        new SigningCredentials(new ECDsaSecurityKey(_ecdsa), Algorithm); // expect: key-material ECDSA; signature ECDSA
}
