use openssl::rsa::{Padding, Rsa};

pub fn encrypt_for_partner(pem: &[u8], secret: &[u8]) -> Vec<u8> {
    let rsa = Rsa::public_key_from_pem(pem).unwrap(); // expect: key-material RSA
    let mut buf = vec![0; rsa.size() as usize];
    let len = rsa.public_encrypt(secret, &mut buf, Padding::PKCS1_OAEP).unwrap(); // expect: encryption RSA
    buf.truncate(len);
    buf
}
