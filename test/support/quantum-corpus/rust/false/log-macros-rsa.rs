use tracing::{info, warn};

pub fn report_rotation(kid: &str, bits: usize) {
    info!(kid, bits, "rotated RSA signing key; next: RsaPrivateKey::new");
    warn!("ECDSA P-256 keys expire in 30 days");
    println!("Algorithm::RS256 tokens still accepted");
}
