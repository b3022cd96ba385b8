using Org.BouncyCastle.Crypto;
using Org.BouncyCastle.Crypto.Encodings;
using Org.BouncyCastle.Crypto.Engines;
using Org.BouncyCastle.Security;

internal static class EnvelopeCrypto
{
    public static byte[] Wrap(byte[] cek, AsymmetricKeyParameter recipient)
    {
        var engine = new OaepEncoding(new RsaEngine()); // expect: encryption RSA
        engine.Init(true, recipient);
        return engine.ProcessBlock(cek, 0, cek.Length); // expect: encryption RSA
    }

    public static IBufferedCipher Legacy() =>
        CipherUtilities.GetCipher("RSA/ECB/PKCS1Padding"); // expect: encryption RSA
}
