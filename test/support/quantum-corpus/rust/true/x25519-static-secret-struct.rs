use x25519_dalek::{PublicKey, StaticSecret};

pub struct Peer {
    secret: StaticSecret,
}

impl Peer {
    pub fn new() -> Self {
        Peer { secret: StaticSecret::random_from_rng(rand_core::OsRng) } // expect: key-agreement X25519
    }

    pub fn shared(&self, other: &PublicKey) -> [u8; 32] {
        self.secret.diffie_hellman(other).to_bytes() // expect: key-agreement X25519
    }
}
