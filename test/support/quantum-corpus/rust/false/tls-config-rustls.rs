use std::sync::Arc;

pub fn client_config(roots: rustls::RootCertStore) -> Arc<rustls::ClientConfig> {
    let config = rustls::ClientConfig::builder()
        .with_root_certificates(roots)
        .with_no_client_auth();
    Arc::new(config)
}
