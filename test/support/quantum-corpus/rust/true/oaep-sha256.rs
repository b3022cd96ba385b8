use rsa::{Oaep, RsaPrivateKey};
use sha2::Sha256;

pub fn unwrap_data_key(key: &RsaPrivateKey, wrapped: &[u8]) -> Result<Vec<u8>, rsa::Error> {
    let padding = Oaep::new::<Sha256>(); // expect: encryption RSA
    key.decrypt(padding, wrapped) // expect: encryption RSA
}
