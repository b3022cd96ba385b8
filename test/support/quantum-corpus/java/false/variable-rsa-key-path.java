package com.example.paths;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;

public class KeyFiles {
    private final Path rsaKeyPath = Path.of("/etc/app/rsa_private.pem");
    private final Path ecdsaCertPath = Path.of("/etc/app/ecdsa_cert.pem");
    private PrivateKey cached;

    public byte[] readRsaKey() throws IOException {
        return Files.readAllBytes(rsaKeyPath);
    }

    public boolean hasEcdsaCert() {
        return Files.exists(ecdsaCertPath);
    }
}
