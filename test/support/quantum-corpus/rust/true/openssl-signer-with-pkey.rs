use openssl::hash::MessageDigest;
use openssl::pkey::{PKey, Private};
use openssl::rsa::Rsa;
use openssl::sign::{Signer, Verifier};

pub fn sign_manifest(pem: &[u8], manifest: &[u8]) -> Vec<u8> {
    let rsa = Rsa::private_key_from_pem(pem).unwrap(); // expect: key-material RSA
    let key: PKey<Private> = PKey::from_rsa(rsa).unwrap();
    let mut signer = Signer::new(MessageDigest::sha256(), &key).unwrap(); // expect: signature RSA
    signer.update(manifest).unwrap();
    signer.sign_to_vec().unwrap()
}

pub fn check(key: &PKey<openssl::pkey::Public>, data: &[u8], sig: &[u8]) -> bool {
    let mut verifier = Verifier::new(MessageDigest::sha256(), key).unwrap(); // expect: signature RSA
    verifier.update(data).unwrap();
    verifier.verify(sig).unwrap()
}
