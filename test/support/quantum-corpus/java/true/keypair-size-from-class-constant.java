package com.example.pki;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;

public final class DeviceKeys {
    static final String ALG = "EC";
    static final String CURVE = "secp384r1";

    private DeviceKeys() {}

    public static KeyPair create() throws GeneralSecurityException {
        ECGenParameterSpec spec = new ECGenParameterSpec(CURVE);
        KeyPairGenerator kpg = KeyPairGenerator.getInstance(ALG); // expect: key-generation ECDSA
        kpg.initialize(spec);
        return kpg.generateKeyPair();
    }
}
