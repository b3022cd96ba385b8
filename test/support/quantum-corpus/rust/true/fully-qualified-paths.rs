pub fn keys() {
    let mut rng = rand::thread_rng();
    let rsa_key = rsa::RsaPrivateKey::new(&mut rng, 3072).unwrap(); // expect: key-generation RSA
    let ec_key = p256::SecretKey::random(&mut rng); // expect: key-generation ECDSA
    let ed_key = ed25519_dalek::SigningKey::generate(&mut rng); // expect: key-generation EdDSA
    drop((rsa_key, ec_key, ed_key));
}
