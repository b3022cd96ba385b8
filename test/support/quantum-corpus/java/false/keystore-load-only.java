package com.example.tls;

import java.io.InputStream;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

public class TrustStore {
    public KeyStore load(InputStream in, char[] password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(in, password);
        return store;
    }

    public X509Certificate parse(InputStream in) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
}
