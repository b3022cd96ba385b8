use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use rand::rngs::OsRng;

pub fn sign_commit(message: &[u8]) -> (VerifyingKey, Signature) {
    let mut csprng = OsRng;
    let signing_key: SigningKey = SigningKey::generate(&mut csprng); // expect: key-generation EdDSA
    let signature = signing_key.sign(message); // expect: signature EdDSA
    let verifying_key = signing_key.verifying_key();
    assert!(verifying_key.verify(message, &signature).is_ok()); // expect: signature EdDSA
    (verifying_key, signature)
}
