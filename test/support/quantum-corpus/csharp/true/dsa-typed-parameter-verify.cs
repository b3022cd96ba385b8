using System.Security.Cryptography;

public static class LegacyVerifier
{
    public static bool Check(DSA key, byte[] data, byte[] signature)
    {
        return key.VerifyData(data, signature, HashAlgorithmName.SHA1); // expect: signature DSA
    }
}
