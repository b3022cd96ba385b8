use ring::rand::SystemRandom;
use ring::signature::{self, EcdsaKeyPair, KeyPair};

pub fn new_device_identity() -> Result<Vec<u8>, ring::error::Unspecified> {
    let rng = SystemRandom::new();
    let pkcs8 = EcdsaKeyPair::generate_pkcs8(&signature::ECDSA_P256_SHA256_ASN1_SIGNING, &rng)?; // expect: key-generation ECDSA
    let pair = EcdsaKeyPair::from_pkcs8(&signature::ECDSA_P256_SHA256_ASN1_SIGNING, pkcs8.as_ref(), &rng)?; // expect: key-material ECDSA
    let sig = pair.sign(&rng, b"hello")?; // expect: signature ECDSA
    Ok(sig.as_ref().to_vec())
}
