package com.example.handshake;

import java.security.GeneralSecurityException;

public class HandshakeException extends GeneralSecurityException {
    public static HandshakeException noEcdh() {
        return new HandshakeException("peer did not offer ECDH (X25519 or P-256)");
    }

    public static HandshakeException weakRsa(int bits) {
        return new HandshakeException("peer certificate uses RSA-" + bits + ", below 2048");
    }

    public HandshakeException(String message) {
        super(message);
    }
}
