using Org.BouncyCastle.Crypto;
using Org.BouncyCastle.Crypto.Generators;
using Org.BouncyCastle.Crypto.Parameters;
using Org.BouncyCastle.Math;
using Org.BouncyCastle.Security;

namespace Pki.Issuer
{
    public static class CaKeys
    {
        public static AsymmetricCipherKeyPair Generate()
        {
            var generator = new RsaKeyPairGenerator(); // expect: key-generation RSA
            generator.Init(new RsaKeyGenerationParameters( // expect: key-generation RSA
                BigInteger.ValueOf(65537),
                new SecureRandom(),
                2048,
                80));
            return generator.GenerateKeyPair();
        }
    }
}
