#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyAlgorithm {
    Rsa,
    Ecdsa,
    Ed25519,
}

impl KeyAlgorithm {
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "RSA" => Some(KeyAlgorithm::Rsa),
            "ECDSA" => Some(KeyAlgorithm::Ecdsa),
            "Ed25519" => Some(KeyAlgorithm::Ed25519),
            _ => None,
        }
    }
}
