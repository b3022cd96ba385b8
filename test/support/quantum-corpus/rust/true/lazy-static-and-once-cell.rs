use ed25519_dalek::SigningKey;
use once_cell::sync::Lazy;
use rand::rngs::OsRng;
use rsa::RsaPrivateKey;

lazy_static::lazy_static! {
    static ref SERVER_KEY: RsaPrivateKey = RsaPrivateKey::new(&mut OsRng, 2048).unwrap(); // expect: key-generation RSA
}

static NODE_KEY: Lazy<SigningKey> = Lazy::new(|| SigningKey::generate(&mut OsRng)); // expect: key-generation EdDSA

pub fn spawn_keygen(bits: usize) -> tokio::task::JoinHandle<rsa::Result<RsaPrivateKey>> {
    tokio::task::spawn_blocking(move || RsaPrivateKey::new(&mut OsRng, bits)) // expect: key-generation RSA
}
