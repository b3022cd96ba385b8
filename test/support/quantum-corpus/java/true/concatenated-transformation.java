package com.example.legacy;

import java.security.Key;
import javax.crypto.Cipher;

public class LegacyCipher {
    private static final String ALG = "RSA";
    private static final String PADDING = "/ECB/PKCS1Padding";

    public byte[] encrypt(Key key, byte[] data) throws Exception {
        Cipher cipher = Cipher.getInstance(ALG + PADDING); // expect: encryption RSA
        cipher.init(Cipher.ENCRYPT_MODE, key);
        return cipher.doFinal(data);
    }
}
