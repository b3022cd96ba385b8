use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};

pub fn issue(secret: &[u8], claims: &serde_json::Value) -> String {
    encode(&Header::new(Algorithm::HS256), claims, &EncodingKey::from_secret(secret)).unwrap()
}

pub fn check(secret: &[u8], token: &str) -> bool {
    let validation = Validation::new(Algorithm::HS512);
    decode::<serde_json::Value>(token, &DecodingKey::from_secret(secret), &validation).is_ok()
}
