pub fn fingerprint(data: &[u8]) -> String {
    hex::encode(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rsa::{RsaPrivateKey, RsaPublicKey, Pkcs1v15Encrypt};

    const TEST_BITS: usize = 512;

    #[test]
    fn round_trip() {
        let mut rng = rand::thread_rng();
        let key = RsaPrivateKey::new(&mut rng, TEST_BITS).unwrap(); // expect: key-generation RSA
        let public = RsaPublicKey::from(&key); // expect: key-material RSA
        let sealed = public.encrypt(&mut rng, Pkcs1v15Encrypt, b"x").unwrap(); // expect: encryption RSA
        assert_eq!(fingerprint(&sealed).len(), 128);
    }
}
