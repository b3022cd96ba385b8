using System.Security.Cryptography;

namespace SecureChannel
{
    public class HandshakeService
    {
        public byte[] DeriveSessionKey(ECDiffieHellmanPublicKey peerKey)
        {
            using var local = ECDiffieHellman.Create(ECCurve.NamedCurves.nistP384); // expect: key-agreement ECDH
            return local.DeriveKeyFromHash(peerKey, HashAlgorithmName.SHA384); // expect: key-agreement ECDH
        }
    }
}
