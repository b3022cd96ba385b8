use openssl::ec::{EcGroup, EcKey};
use openssl::nid::Nid;

pub fn new_tls_key() -> EcKey<openssl::pkey::Private> {
    let group = EcGroup::from_curve_name(Nid::SECP384R1).unwrap();
    EcKey::generate(&group).unwrap() // expect: key-generation ECDSA
}
