use openssl::pkey::PKey;
use openssl::rsa::Rsa;

pub fn generate_ca_key() -> Result<Vec<u8>, openssl::error::ErrorStack> {
    let rsa = Rsa::generate(4096)?; // expect: key-generation RSA
    let pkey = PKey::from_rsa(rsa)?;
    pkey.private_key_to_pem_pkcs8()
}
