package com.example.tokens;

import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.SignatureAlgorithm;
import io.jsonwebtoken.security.Keys;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.util.Date;

public class LegacyTokenService {
    private final KeyPair partnerKeys = Keys.keyPairFor(SignatureAlgorithm.ES256); // expect: key-generation ECDSA

    public String issue(PrivateKey key, String subject) {
        return Jwts.builder()
                .setSubject(subject)
                .setIssuedAt(new Date())
                .signWith(key, SignatureAlgorithm.RS256) // expect: signature RSA
                .compact();
    }

    public KeyPair partnerKeys() {
        return partnerKeys;
    }
}
