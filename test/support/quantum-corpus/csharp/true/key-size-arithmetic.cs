using System.Security.Cryptography;

internal static class Keys
{
    private const int Bits = 1 << 11;

    internal static RSA Make() => RSA.Create(Bits * 2); // expect: key-generation RSA
}
