pub const DEFAULT_KEY_ALG: &str = "RSA";
pub const DEFAULT_CURVE: &str = "secp256r1";
pub const MIN_RSA_BITS: usize = 2048;

pub fn describe() -> String {
    format!("{DEFAULT_KEY_ALG}/{DEFAULT_CURVE}/{MIN_RSA_BITS}")
}
