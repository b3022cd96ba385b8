use jsonwebtoken::{Algorithm, Header};

pub fn header_for(kid: &str) -> Header {
    Header {
        alg: Algorithm::EdDSA, // expect: signature EdDSA
        kid: Some(kid.to_owned()),
        ..Default::default()
    }
}
