use ring::rand::SystemRandom;
use ring::signature::{RsaKeyPair, RSA_PKCS1_SHA256};

pub struct JwtSigner {
    key_pair: RsaKeyPair,
}

impl JwtSigner {
    pub fn load(der: &[u8]) -> Self {
        let key_pair = RsaKeyPair::from_pkcs8(der).expect("valid PKCS#8"); // expect: key-material RSA
        JwtSigner { key_pair }
    }

    pub fn sign(&self, input: &[u8]) -> Vec<u8> {
        let mut signature = vec![0; self.key_pair.public().modulus_len()];
        self.key_pair
            .sign(&RSA_PKCS1_SHA256, &SystemRandom::new(), input, &mut signature) // expect: signature RSA
            .expect("sign");
        signature
    }
}
