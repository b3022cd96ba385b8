use ring::agreement::{self, EphemeralPrivateKey, UnparsedPublicKey, X25519};
use ring::rand::SystemRandom;

pub fn derive(peer_public: &[u8]) -> Vec<u8> {
    let rng = SystemRandom::new();
    let private = EphemeralPrivateKey::generate(&X25519, &rng).unwrap(); // expect: key-agreement X25519
    let peer = UnparsedPublicKey::new(&X25519, peer_public); // expect: key-agreement X25519
    agreement::agree_ephemeral(private, &peer, |material| material.to_vec()).unwrap() // expect: key-agreement X25519
}
