package com.example.payments;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;

public class PayloadSigner {
    public byte[] sign(PrivateKey key, String payload) throws GeneralSecurityException {
        Signature signature = Signature.getInstance("SHA256withECDSA"); // expect: signature ECDSA
        signature.initSign(key);
        signature.update(payload.getBytes(StandardCharsets.UTF_8));
        return signature.sign();
    }

    public boolean verifyBank(PublicKey bankKey, byte[] data, byte[] sig) throws GeneralSecurityException {
        Signature verifier = Signature.getInstance("SHA256withRSA"); // expect: signature RSA
        verifier.initVerify(bankKey);
        verifier.update(data);
        return verifier.verify(sig);
    }
}
