use openssl::derive::Deriver;
use openssl::pkey::PKey;

pub fn keys() -> Vec<u8> {
    let signing = PKey::generate_ed25519().unwrap(); // expect: key-generation EdDSA
    let local = PKey::generate_x25519().unwrap(); // expect: key-agreement X25519
    let peer = PKey::generate_x25519().unwrap(); // expect: key-agreement X25519
    let mut deriver = Deriver::new(&local).unwrap(); // expect: key-agreement X25519
    deriver.set_peer(&peer).unwrap();
    drop(signing);
    deriver.derive_to_vec().unwrap()
}
