package com.example.keys;

import java.security.Key;
import java.security.PrivateKey;
import java.security.PublicKey;

public class KeyHolder {
    private PublicKey publicKey;
    private PrivateKey privateKey;

    public String algorithmOf(Key key) {
        return key.getAlgorithm() + "/" + key.getFormat();
    }
}
