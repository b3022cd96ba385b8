use p384::{ecdh::EphemeralSecret, EncodedPoint, PublicKey};
use rand_core::OsRng;

pub fn handshake(peer_sec1: &[u8]) -> Vec<u8> {
    let secret = EphemeralSecret::random(&mut OsRng); // expect: key-agreement ECDH
    let peer = PublicKey::from_sec1_bytes(peer_sec1).expect("peer key"); // expect: key-material ECDSA
    let shared = secret.diffie_hellman(&peer); // expect: key-agreement ECDH
    let _ours = EncodedPoint::from(secret.public_key());
    shared.raw_secret_bytes().to_vec()
}
