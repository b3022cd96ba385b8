use ring::signature;

pub fn verify_webhook(public_key_der: &[u8], body: &[u8], sig: &[u8]) -> bool {
    let key = signature::UnparsedPublicKey::new(&signature::RSA_PKCS1_2048_8192_SHA256, public_key_der); // expect: signature RSA
    key.verify(body, sig).is_ok()
}
