package com.example.channel;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import javax.crypto.KeyAgreement;

public class SessionAgreement {
    public byte[] agree(PublicKey peer) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC"); // expect: key-generation ECDSA
        generator.initialize(256);
        KeyPair mine = generator.generateKeyPair();
        KeyAgreement agreement = KeyAgreement.getInstance("ECDH"); // expect: key-agreement ECDH
        agreement.init(mine.getPrivate());
        agreement.doPhase(peer, true);
        return agreement.generateSecret();
    }
}
