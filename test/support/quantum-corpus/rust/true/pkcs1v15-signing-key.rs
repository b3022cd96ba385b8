use rsa::pkcs1v15::{SigningKey, VerifyingKey};
use rsa::signature::{RandomizedSigner, SignatureEncoding, Verifier};
use rsa::RsaPrivateKey;
use sha2::Sha256;

pub fn sign_release(private_key: RsaPrivateKey, artifact: &[u8]) -> Vec<u8> {
    let signing_key = SigningKey::<Sha256>::new(private_key); // expect: signature RSA
    let verifying_key: VerifyingKey<Sha256> = signing_key.verifying_key();
    let mut rng = rand::thread_rng();
    let signature = signing_key.sign_with_rng(&mut rng, artifact); // expect: signature RSA
    verifying_key.verify(artifact, &signature).expect("verifies"); // expect: signature RSA
    signature.to_vec()
}
