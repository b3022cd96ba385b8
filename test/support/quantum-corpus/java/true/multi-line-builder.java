package com.example.tokens;

import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.SignatureAlgorithm;
import java.security.PrivateKey;
import java.util.Map;

public class ClaimsTokenService {
    public String issue(PrivateKey key, Map<String, Object> claims) {
        return Jwts.builder()
                .setClaims(claims)
                .setHeaderParam("kid", "p521-1")
                .signWith(
                        key,
                        SignatureAlgorithm.ES512) // expect: signature ECDSA
                .compact();
    }
}
