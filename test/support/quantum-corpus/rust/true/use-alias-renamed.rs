use p256::ecdsa::SigningKey as P256Key;
use rsa::RsaPrivateKey as PrivateKey;
use rand::rngs::OsRng;

pub fn make() -> (P256Key, PrivateKey) {
    let ec = P256Key::random(&mut OsRng); // expect: key-generation ECDSA
    let rsa = PrivateKey::new(&mut OsRng, 2048).unwrap(); // expect: key-generation RSA
    (ec, rsa)
}
