use rsa::RsaPrivateKey;

const LEGACY_KEY_BITS: usize = 1024;

pub fn legacy_device_key() -> RsaPrivateKey {
    let mut rng = rand::thread_rng();
    RsaPrivateKey::new(&mut rng, LEGACY_KEY_BITS).expect("failed to generate a key") // expect: key-generation RSA
}
