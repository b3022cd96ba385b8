package com.example.keys;

import java.security.KeyPairGenerator;
import java.security.Signature;

public class EnumKeys {
    enum KeyAlgorithm { RSA, EC }

    public KeyPairGenerator generator() throws Exception {
        return KeyPairGenerator.getInstance(KeyAlgorithm.EC.name()); // expect: key-generation ECDSA
    }

    public Signature signer(boolean fast) throws Exception {
        return Signature.getInstance(fast ? "SHA256withECDSA" : "SHA512withRSA"); // expect: signature ECDSA; signature RSA
    }
}
