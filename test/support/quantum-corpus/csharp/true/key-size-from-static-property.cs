using System.Security.Cryptography;

public class SessionKeys
{
    public static int Bits => 2048;

    public RSA Create() => RSA.Create(Bits); // expect: key-generation RSA
}
