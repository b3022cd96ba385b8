use actix_web::{post, web, HttpResponse};
use ed25519_dalek::{Signer, SigningKey};

pub struct AppKeys {
    pub signing: SigningKey,
}

#[post("/sign")]
async fn sign(keys: web::Data<AppKeys>, body: web::Bytes) -> HttpResponse {
    let signature = keys.signing.sign(&body); // expect: signature EdDSA
    HttpResponse::Ok().body(signature.to_bytes().to_vec())
}

pub fn load(seed: &[u8; 32]) -> AppKeys {
    AppKeys { signing: SigningKey::from_bytes(seed) } // expect: key-material EdDSA
}
