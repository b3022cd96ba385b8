package com.example.signing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import org.junit.jupiter.api.Test;

class Ed25519SignerTest {
    @Test
    void signsAndVerifies() throws Exception {
        KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair(); // expect: key-generation EdDSA
        Signature signer = Signature.getInstance("Ed25519"); // expect: signature EdDSA
        signer.initSign(pair.getPrivate());
        signer.update(new byte[] {1, 2, 3});
        byte[] sig = signer.sign();
        Signature verifier = Signature.getInstance("Ed25519"); // expect: signature EdDSA
        verifier.initVerify(pair.getPublic());
        verifier.update(new byte[] {1, 2, 3});
        assertTrue(verifier.verify(sig));
    }
}
