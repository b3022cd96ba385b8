use aes_gcm::aead::{Aead, KeyInit, OsRng};
use aes_gcm::{AeadCore, Aes256Gcm, Key};

pub fn seal(key_bytes: &[u8; 32], plaintext: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let key = Key::<Aes256Gcm>::from_slice(key_bytes);
    let cipher = Aes256Gcm::new(key);
    let nonce = Aes256Gcm::generate_nonce(&mut OsRng);
    let ciphertext = cipher.encrypt(&nonce, plaintext).expect("encrypt");
    (nonce.to_vec(), ciphertext)
}

pub fn open(key_bytes: &[u8; 32], nonce: &[u8], ciphertext: &[u8]) -> Vec<u8> {
    let cipher = Aes256Gcm::new_from_slice(key_bytes).unwrap();
    cipher.decrypt(nonce.into(), ciphertext).expect("decrypt")
}
