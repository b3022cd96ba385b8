//! Key management notes.
//!
//! Historically this crate called `RsaPrivateKey::new(&mut rng, 2048)` and
//! `SigningKey::random(&mut OsRng)` from p256; both are scheduled for ML-DSA.

/// Returns the configured algorithm name, for example `"RS256"` or `"ES256"`.
/// See also [`ring::signature::ECDSA_P256_SHA256_ASN1_SIGNING`].
pub fn algorithm_name(config: &Config) -> &str {
    // TODO(security): stop using Rsa::generate(1024) in the fixtures generator
    &config.algorithm
}

pub struct Config {
    pub algorithm: String,
}
