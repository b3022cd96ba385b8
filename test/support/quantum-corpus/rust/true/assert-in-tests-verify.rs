#[cfg(test)]
mod tests {
    use p256::ecdsa::{signature::Signer, signature::Verifier, Signature, SigningKey};
    use rand_core::OsRng;

    #[test]
    fn signs_and_verifies() {
        let sk = SigningKey::random(&mut OsRng); // expect: key-generation ECDSA
        let sig: Signature = sk.sign(b"msg"); // expect: signature ECDSA
        assert!(sk.verifying_key().verify(b"msg", &sig).is_ok()); // expect: signature ECDSA
        assert_eq!(format!("{:?}", sk.sign(b"x")).is_empty(), false); // expect: signature ECDSA
    }
}
