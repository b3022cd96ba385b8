package com.example.keys;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.RSAKeyGenParameterSpec;

public class StrongRsa {
    public KeyPair create() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA"); // expect: key-generation RSA
        generator.initialize(new RSAKeyGenParameterSpec(4096, RSAKeyGenParameterSpec.F4));
        return generator.generateKeyPair();
    }
}
