package com.example.model;

import java.security.PublicKey;

public enum KeyType {
    RSA("RSA", 3072),
    EC("EC", 256),
    ED25519("Ed25519", 255);

    private final String jcaName;
    private final int defaultBits;

    KeyType(String jcaName, int defaultBits) {
        this.jcaName = jcaName;
        this.defaultBits = defaultBits;
    }

    public static KeyType of(PublicKey key) {
        return valueOf(key.getAlgorithm().toUpperCase());
    }
}
