use std::path::PathBuf;

pub struct Settings {
    pub rsa_key_path: PathBuf,
    pub ecdsa_public_key: Option<String>,
}

pub fn load_settings() -> Settings {
    let rsa_key_path = std::env::var("RSA_KEY_PATH").unwrap_or_else(|_| "keys/rsa.pem".into());
    Settings { rsa_key_path: rsa_key_path.into(), ecdsa_public_key: None }
}
