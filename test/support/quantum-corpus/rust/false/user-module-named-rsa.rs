mod rsa_store {
    pub struct KeyStore;

    impl KeyStore {
        pub fn new() -> Self {
            KeyStore
        }

        pub fn encrypt(&self, data: &[u8]) -> Vec<u8> {
            data.to_vec()
        }
    }
}

pub fn store() -> Vec<u8> {
    let store = rsa_store::KeyStore::new();
    store.encrypt(b"payload")
}
