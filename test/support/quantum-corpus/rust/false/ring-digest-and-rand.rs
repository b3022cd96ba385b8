use ring::digest::{digest, SHA256};
use ring::rand::{SecureRandom, SystemRandom};

pub fn token() -> [u8; 32] {
    let mut buf = [0u8; 32];
    SystemRandom::new().fill(&mut buf).unwrap();
    buf
}

pub fn checksum(data: &[u8]) -> Vec<u8> {
    digest(&SHA256, data).as_ref().to_vec()
}
