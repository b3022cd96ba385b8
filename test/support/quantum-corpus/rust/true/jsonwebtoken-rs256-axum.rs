use axum::{extract::State, Json};
use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use serde::Serialize;

#[derive(Serialize)]
struct Claims {
    sub: String,
    exp: usize,
}

pub async fn login(State(state): State<AppState>) -> Json<String> {
    let key = EncodingKey::from_rsa_pem(state.private_pem.as_bytes()).unwrap(); // expect: key-material RSA
    let claims = Claims { sub: "user".into(), exp: 2_000_000_000 };
    let token = encode(&Header::new(Algorithm::RS256), &claims, &key).unwrap(); // expect: signature RSA
    Json(token)
}
