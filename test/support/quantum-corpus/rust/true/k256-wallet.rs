use k256::ecdsa::{RecoveryId, Signature, SigningKey};
use sha3::{Digest, Keccak256};

pub struct Wallet {
    key: SigningKey,
}

impl Wallet {
    pub fn from_secret(bytes: &[u8; 32]) -> Self {
        let key = SigningKey::from_bytes(bytes.into()).unwrap(); // expect: key-material ECDSA
        Wallet { key }
    }

    pub fn sign_hash(&self, message: &[u8]) -> (Signature, RecoveryId) {
        let digest = Keccak256::new_with_prefix(message);
        self.key.sign_digest_recoverable(digest).unwrap() // expect: signature ECDSA
    }

    pub fn sign(&self, message: &[u8]) -> Signature {
        self.key.sign_prehash(message).unwrap() // expect: signature ECDSA
    }
}
