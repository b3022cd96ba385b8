package com.example.channel;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import javax.crypto.KeyAgreement;

public class ModernAgreement {
    public byte[] agree(PublicKey peer) throws Exception {
        KeyPair mine = KeyPairGenerator.getInstance("X25519").generateKeyPair(); // expect: key-generation X25519
        KeyAgreement agreement = KeyAgreement.getInstance("XDH"); // expect: key-agreement X25519
        agreement.init(mine.getPrivate());
        agreement.doPhase(peer, true);
        return agreement.generateSecret();
    }
}
