use openssl::dsa::Dsa;

const BITS: u32 = 1024;

pub fn legacy() -> Dsa<openssl::pkey::Private> {
    Dsa::generate(BITS).expect("dsa") // expect: key-generation DSA
}
