using Org.BouncyCastle.Crypto.Generators;
using Org.BouncyCastle.Crypto.Parameters;
using Org.BouncyCastle.Crypto.Signers;
using Org.BouncyCastle.Security;

namespace Ledger.Signing;

public static class Ed25519Keys
{
    public static byte[] SignEntry(byte[] entry)
    {
        var kpg = new Ed25519KeyPairGenerator(); // expect: key-generation EdDSA
        kpg.Init(new Ed25519KeyGenerationParameters(new SecureRandom()));
        var pair = kpg.GenerateKeyPair();
        var signer = new Ed25519Signer(); // expect: signature EdDSA
        signer.Init(true, pair.Private);
        signer.BlockUpdate(entry, 0, entry.Length);
        return signer.GenerateSignature(); // expect: signature EdDSA
    }
}
