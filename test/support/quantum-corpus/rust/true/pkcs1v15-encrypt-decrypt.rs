use rand::rngs::OsRng;
use rsa::{Pkcs1v15Encrypt, RsaPrivateKey, RsaPublicKey};

pub struct Envelope {
    key: RsaPrivateKey,
}

impl Envelope {
    pub fn seal(&self, public: &RsaPublicKey, data: &[u8]) -> Vec<u8> {
        public
            .encrypt(&mut OsRng, Pkcs1v15Encrypt, data) // expect: encryption RSA
            .expect("encrypt")
    }

    pub fn open(&self, sealed: &[u8]) -> Vec<u8> {
        self.key.decrypt(Pkcs1v15Encrypt, sealed).expect("decrypt") // expect: encryption RSA
    }
}
