use rsa::{Oaep, RsaPublicKey};
use sha2::Sha256;

pub struct KeyWrapper {
    recipient: RsaPublicKey,
}

impl KeyWrapper {
    pub fn wrap(&self, dek: &[u8]) -> Vec<u8> {
        let mut rng = rand::thread_rng();
        self.recipient.encrypt(&mut rng, Oaep::new::<Sha256>(), dek).unwrap() // expect: encryption RSA
    }
}
