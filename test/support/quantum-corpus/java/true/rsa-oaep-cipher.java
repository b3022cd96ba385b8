package com.example.vault;

import java.security.GeneralSecurityException;
import java.security.PublicKey;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

public class EnvelopeEncryption {
    private static final String KEY_WRAP = "RSA/ECB/OAEPWithSHA-256AndMGF1Padding";
    private static final String DATA = "AES/GCM/NoPadding";

    public byte[] wrap(PublicKey kek, SecretKey dek) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance(KEY_WRAP); // expect: encryption RSA
        cipher.init(Cipher.WRAP_MODE, kek);
        return cipher.wrap(dek);
    }

    public byte[] encrypt(SecretKey dek, byte[] iv, byte[] plaintext) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance(DATA);
        cipher.init(Cipher.ENCRYPT_MODE, dek, new GCMParameterSpec(128, iv));
        return cipher.doFinal(plaintext);
    }
}
