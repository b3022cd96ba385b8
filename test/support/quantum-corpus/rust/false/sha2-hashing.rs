use sha2::{Digest, Sha256, Sha512};

pub fn content_id(bytes: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(bytes);
    hex::encode(hasher.finalize())
}

pub fn long_id(bytes: &[u8]) -> Vec<u8> {
    Sha512::digest(bytes).to_vec()
}
