use rsa::RsaPrivateKey;

struct KeyPolicy;

impl KeyPolicy {
    const MIN_BITS: usize = 3072;

    fn bits() -> usize {
        Self::MIN_BITS
    }
}

pub fn generate() -> RsaPrivateKey {
    RsaPrivateKey::new(&mut rand::thread_rng(), KeyPolicy::bits()).unwrap() // expect: key-generation RSA
}
