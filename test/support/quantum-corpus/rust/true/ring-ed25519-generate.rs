use ring::{rand, signature};

fn main() {
    let rng = rand::SystemRandom::new();
    let pkcs8_bytes = signature::Ed25519KeyPair::generate_pkcs8(&rng).unwrap(); // expect: key-generation EdDSA
    let key_pair = signature::Ed25519KeyPair::from_pkcs8(pkcs8_bytes.as_ref()).unwrap(); // expect: key-material EdDSA
    const MESSAGE: &[u8] = b"hello, world";
    let sig = key_pair.sign(MESSAGE); // expect: signature EdDSA
    println!("{}", hex::encode(sig.as_ref()));
}
