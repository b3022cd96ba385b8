use aes_gcm::{aead::Aead, Aes128Gcm, KeyInit};

pub struct Vault {
    cipher: Aes128Gcm,
}

impl Vault {
    pub fn new(key: &[u8; 16]) -> Self {
        Vault { cipher: Aes128Gcm::new(key.into()) }
    }

    pub fn seal(&self, nonce: &[u8; 12], data: &[u8]) -> Vec<u8> {
        self.cipher.encrypt(nonce.into(), data).unwrap()
    }
}
