using Microsoft.IdentityModel.Tokens;

namespace Gateway.Auth
{
    public static class AlgorithmPolicy
    {
        public static string For(string keyType) => keyType switch
        {
            "RSA" => SecurityAlgorithms.RsaSsaPssSha256, // expect: signature RSA
            "EC" => SecurityAlgorithms.EcdsaSha256, // expect: signature ECDSA
            _ => SecurityAlgorithms.HmacSha256,
        };
    }
}
