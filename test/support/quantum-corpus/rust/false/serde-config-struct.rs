use serde::Deserialize;

#[derive(Deserialize)]
pub struct JwtConfig {
    #[serde(default = "default_alg")]
    pub algorithm: String,
    pub rsa_bits: Option<u32>,
    pub curve: Option<String>,
}

fn default_alg() -> String {
    "RS256".to_string()
}
