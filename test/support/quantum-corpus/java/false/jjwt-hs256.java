package com.example.session;

import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.security.Keys;
import java.nio.charset.StandardCharsets;
import javax.crypto.SecretKey;

public class SessionTokens {
    private final SecretKey key = Keys.hmacShaKeyFor("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8));

    public String issue(String user) {
        return Jwts.builder().subject(user).signWith(key, Jwts.SIG.HS256).compact();
    }
}
