use k256::ecdsa::*;
use rand_core::OsRng;

pub fn new_account() -> VerifyingKey {
    let signing = SigningKey::random(&mut OsRng); // expect: key-generation ECDSA
    *signing.verifying_key()
}
