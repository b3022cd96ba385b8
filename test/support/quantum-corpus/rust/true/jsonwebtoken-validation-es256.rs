use jsonwebtoken::{decode, Algorithm, DecodingKey, Validation};

pub fn verify(token: &str, public_pem: &[u8]) -> bool {
    let key = DecodingKey::from_ec_pem(public_pem).unwrap(); // expect: key-material ECDSA
    let mut validation = Validation::new(Algorithm::ES256); // expect: signature ECDSA
    validation.set_audience(&["api"]);
    decode::<serde_json::Value>(token, &key, &validation).is_ok()
}
