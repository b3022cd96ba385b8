using System.Security.Cryptography;

public static class KeyRotation
{
    public static RSA NewSigningKey()
    {
        var rsa = new RSACng(); // expect: key-generation RSA
        rsa.KeySize = 3072; // expect: key-generation RSA
        return rsa;
    }
}
