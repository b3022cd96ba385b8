use ring::signature::{self, UnparsedPublicKey, VerificationAlgorithm};

static TOKEN_ALG: &dyn VerificationAlgorithm = &signature::ECDSA_P384_SHA384_FIXED;

pub fn verify_token(public_key: &[u8], msg: &[u8], sig: &[u8]) -> bool {
    UnparsedPublicKey::new(TOKEN_ALG, public_key) // expect: signature ECDSA
        .verify(msg, sig)
        .is_ok()
}
