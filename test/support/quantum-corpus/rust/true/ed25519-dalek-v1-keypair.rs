extern crate ed25519_dalek;

use ed25519_dalek::Keypair;
use rand::rngs::OsRng;

pub fn node_identity() -> Keypair {
    let mut csprng = OsRng {};
    Keypair::generate(&mut csprng) // expect: key-generation EdDSA
}
