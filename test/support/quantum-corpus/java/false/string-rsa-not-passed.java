package com.example.labels;

import java.security.Key;

public class KeyLabels {
    private static final String ALG = "RSA";
    private static final String CURVE = "secp256r1";

    public String describe(Key key, int bits) {
        if (ALG.equals(key.getAlgorithm())) {
            return "RSA-" + bits;
        }
        return "EC (" + CURVE + ")";
    }
}
