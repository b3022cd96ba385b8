namespace Shared.Constants
{
    public static class Algorithms
    {
        public const string Rsa = "RSA";
        public const string Ecdsa = "ECDSA";
        public const int MinimumRsaBits = 2048;
        public static readonly string[] Supported = { Rsa, Ecdsa, "Ed25519" };
    }
}
