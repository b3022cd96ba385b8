use rand_core::OsRng;
use x25519_dalek::{EphemeralSecret, PublicKey};

pub fn noise_handshake(remote: [u8; 32]) -> [u8; 32] {
    let secret = EphemeralSecret::random_from_rng(OsRng); // expect: key-agreement X25519
    let _public = PublicKey::from(&secret); // expect: key-material X25519
    let their_public = PublicKey::from(remote); // expect: key-material X25519
    secret.diffie_hellman(&their_public).to_bytes() // expect: key-agreement X25519
}
