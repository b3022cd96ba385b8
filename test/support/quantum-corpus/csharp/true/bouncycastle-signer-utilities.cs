using Org.BouncyCastle.Crypto;
using Org.BouncyCastle.Security;

namespace Firmware.Signing
{
    public class ImageSigner
    {
        private const string Scheme = "SHA256withRSA";

        public byte[] SignImage(byte[] image, AsymmetricKeyParameter key)
        {
            ISigner signer = SignerUtilities.GetSigner(Scheme); // expect: signature RSA
            signer.Init(true, key);
            signer.BlockUpdate(image, 0, image.Length);
            return signer.GenerateSignature(); // expect: signature RSA
        }

        public bool VerifyManifest(byte[] manifest, byte[] sig, AsymmetricKeyParameter key)
        {
            var verifier = SignerUtilities.GetSigner("SHA256withECDSA"); // expect: signature ECDSA
            verifier.Init(false, key);
            verifier.BlockUpdate(manifest, 0, manifest.Length);
            return verifier.VerifySignature(sig); // expect: signature ECDSA
        }
    }
}
