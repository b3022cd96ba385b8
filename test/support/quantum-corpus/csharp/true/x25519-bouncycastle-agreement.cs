using Org.BouncyCastle.Crypto.Agreement;
using Org.BouncyCastle.Crypto.Generators;
using Org.BouncyCastle.Crypto.Parameters;
using Org.BouncyCastle.Security;

namespace Messaging.Sessions
{
    public sealed class X25519Session
    {
        public byte[] Establish(X25519PublicKeyParameters peer)
        {
            var generator = new X25519KeyPairGenerator(); // expect: key-agreement X25519
            generator.Init(new X25519KeyGenerationParameters(new SecureRandom()));
            var pair = generator.GenerateKeyPair();
            var agreement = new X25519Agreement(); // expect: key-agreement X25519
            agreement.Init(pair.Private);
            var secret = new byte[agreement.AgreementSize];
            agreement.CalculateAgreement(peer, secret, 0); // expect: key-agreement X25519
            return secret;
        }
    }
}
