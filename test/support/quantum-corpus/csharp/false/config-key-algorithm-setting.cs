namespace Auth.Options
{
    public sealed class JwtSettings
    {
        public const string SectionName = "Jwt";
        public string Algorithm { get; set; } = "RS256";
        public int RsaKeySize { get; set; } = 2048;
        public string Curve { get; set; } = "nistP256";
        public string Issuer { get; set; } = "https://auth.example.com";
    }
}
