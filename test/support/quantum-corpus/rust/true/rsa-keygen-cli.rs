use clap::Parser;
use rand::rngs::OsRng;
use rsa::pkcs8::{EncodePrivateKey, LineEnding};
use rsa::{RsaPrivateKey, RsaPublicKey};

#[derive(Parser)]
struct Args {
    #[arg(long, default_value_t = 2048)]
    bits: usize,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let mut rng = OsRng;
    let private_key = RsaPrivateKey::new(&mut rng, args.bits)?; // expect: key-generation RSA
    let public_key = RsaPublicKey::from(&private_key); // expect: key-material RSA
    let pem = private_key.to_pkcs8_pem(LineEnding::LF)?;
    std::fs::write("key.pem", pem.as_bytes())?;
    println!("{:?}", public_key);
    Ok(())
}
