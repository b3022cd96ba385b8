package com.example.vpn;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import javax.crypto.KeyAgreement;

public class ClassicDiffieHellman {
    private static final int PRIME_BITS = 1024;

    public KeyAgreement start() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("DiffieHellman"); // expect: key-generation DH
        generator.initialize(PRIME_BITS);
        KeyPair pair = generator.generateKeyPair();
        KeyAgreement agreement = KeyAgreement.getInstance("DH"); // expect: key-agreement DH
        agreement.init(pair.getPrivate());
        return agreement;
    }
}
