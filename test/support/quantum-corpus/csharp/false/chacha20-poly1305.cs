using System.Security.Cryptography;

namespace Transport.Frames
{
    public sealed class FrameSealer
    {
        private readonly ChaCha20Poly1305 _aead;

        public FrameSealer(byte[] key) => _aead = new ChaCha20Poly1305(key);

        public void Seal(byte[] nonce, byte[] plain, byte[] cipher, byte[] tag) =>
            _aead.Encrypt(nonce, plain, cipher, tag);
    }
}
