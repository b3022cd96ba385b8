use rsa::RsaPrivateKey;

pub fn stronger() -> RsaPrivateKey {
    let bits = 1024;
    let bits = bits * 4;
    RsaPrivateKey::new(&mut rand::thread_rng(), bits).unwrap() // expect: key-generation RSA
}
