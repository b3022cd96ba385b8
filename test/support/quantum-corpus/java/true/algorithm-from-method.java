package com.example.legacy;

import java.security.KeyPair;
import java.security.KeyPairGenerator;

public class LegacyKeys {
    private static String keyAlgorithm() {
        return "DSA";
    }

    public KeyPair create() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance(keyAlgorithm()); // expect: key-generation DSA
        generator.initialize(1024);
        return generator.generateKeyPair();
    }
}
