using Org.BouncyCastle.Crypto.Digests;
using Org.BouncyCastle.Crypto.Signers;

namespace Tachograph
{
    static class CardSignature
    {
        public static DsaDigestSigner Create() =>
            new DsaDigestSigner(new ECDsaSigner(), new Sha256Digest()); // expect: signature ECDSA
    }
}
