/// A signing key for the feature-flag service: an opaque token, not a cryptographic key.
pub struct SigningKey {
    token: String,
}

impl SigningKey {
    pub fn new(token: &str) -> Self {
        SigningKey { token: token.to_owned() }
    }

    pub fn random() -> Self {
        SigningKey { token: uuid::Uuid::new_v4().to_string() }
    }

    pub fn sign(&self, flag: &str) -> String {
        format!("{flag}:{}", self.token)
    }
}

pub fn tag(flag: &str) -> String {
    SigningKey::random().sign(flag)
}
