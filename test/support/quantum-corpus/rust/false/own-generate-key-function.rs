use rand::distributions::Alphanumeric;
use rand::Rng;

pub fn generate_key(len: usize) -> String {
    rand::thread_rng().sample_iter(&Alphanumeric).take(len).map(char::from).collect()
}

pub struct ApiKeys;

impl ApiKeys {
    pub fn new_key() -> String {
        generate_key(40)
    }
}
