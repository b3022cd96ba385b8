use rsa::pss::BlindedSigningKey;
use rsa::signature::{Keypair, RandomizedSigner};
use rsa::RsaPrivateKey;
use sha2::Sha256;

pub fn pss_sign(key: RsaPrivateKey, msg: &[u8]) -> Box<[u8]> {
    let signing_key = BlindedSigningKey::<Sha256>::new(key); // expect: signature RSA
    let signature = signing_key.sign_with_rng(&mut rand::thread_rng(), msg); // expect: signature RSA
    signature.into()
}
