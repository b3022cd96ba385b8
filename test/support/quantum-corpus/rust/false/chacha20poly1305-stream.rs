use chacha20poly1305::{aead::Aead, ChaCha20Poly1305, KeyInit, Nonce};

pub fn encrypt_frame(key: &[u8; 32], counter: u64, frame: &[u8]) -> Vec<u8> {
    let cipher = ChaCha20Poly1305::new(key.into());
    let mut nonce = [0u8; 12];
    nonce[4..].copy_from_slice(&counter.to_le_bytes());
    cipher.encrypt(Nonce::from_slice(&nonce), frame).unwrap()
}
