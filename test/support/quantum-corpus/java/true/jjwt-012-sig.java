package com.example.tokens;

import io.jsonwebtoken.Jwts;
import java.security.KeyPair;
import java.security.PrivateKey;

public class TokenService {
    private final KeyPair deviceKeys = Jwts.SIG.EdDSA.keyPair().build(); // expect: key-generation EdDSA

    public String issue(PrivateKey key, String subject) {
        return Jwts.builder().subject(subject).signWith(key, Jwts.SIG.PS256).compact(); // expect: signature RSA
    }
}
