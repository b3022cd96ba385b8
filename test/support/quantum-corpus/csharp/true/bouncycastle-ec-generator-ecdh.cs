using Org.BouncyCastle.Crypto;
using Org.BouncyCastle.Crypto.Agreement;
using Org.BouncyCastle.Crypto.Generators;
using Org.BouncyCastle.Crypto.Parameters;
using Org.BouncyCastle.Security;

public class DeviceKeyExchange
{
    public BigInteger Agree(ECDomainParameters domain, AsymmetricKeyParameter peer)
    {
        var gen = new ECKeyPairGenerator(); // expect: key-generation ECDSA
        gen.Init(new ECKeyGenerationParameters(domain, new SecureRandom()));
        var pair = gen.GenerateKeyPair();
        var agreement = new ECDHBasicAgreement(); // expect: key-agreement ECDH
        agreement.Init(pair.Private);
        return agreement.CalculateAgreement(peer); // expect: key-agreement ECDH
    }
}
