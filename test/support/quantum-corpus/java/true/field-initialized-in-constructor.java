package com.example.keys;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;

public class RotatingKeys {
    private final KeyPairGenerator generator;

    public RotatingKeys(String algorithm) throws NoSuchAlgorithmException {
        this.generator = KeyPairGenerator.getInstance("RSASSA-PSS"); // expect: key-generation RSA
    }

    public KeyPair next() {
        generator.initialize(3072);
        return generator.generateKeyPair();
    }
}
