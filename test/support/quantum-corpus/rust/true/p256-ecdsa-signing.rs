use p256::ecdsa::{signature::Signer, Signature, SigningKey, VerifyingKey};
use rand_core::OsRng;

pub fn issue_receipt(body: &[u8]) -> (Signature, VerifyingKey) {
    let signing_key = SigningKey::random(&mut OsRng); // expect: key-generation ECDSA
    let signature: Signature = signing_key.sign(body); // expect: signature ECDSA
    (signature, *signing_key.verifying_key())
}
