package com.example.tokens;

import java.security.SecureRandom;
import java.util.Base64;

public class ResetTokens {
    private static final SecureRandom RANDOM = new SecureRandom();

    public String next() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
