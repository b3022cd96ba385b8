using System.Security.Cryptography;

namespace Windows.Pairing
{
    class PairingSession
    {
        readonly ECDiffieHellmanCng _ecdh = new ECDiffieHellmanCng(256); // expect: key-agreement ECDH

        public byte[] PublicBlob => _ecdh.PublicKey.ToByteArray();

        public byte[] Secret(ECDiffieHellmanPublicKey other) => _ecdh.DeriveKeyMaterial(other); // expect: key-agreement ECDH
    }
}
