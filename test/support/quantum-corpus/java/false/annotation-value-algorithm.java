package com.example.config;

import java.security.Key;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

@Component
public class JwtSettings {
    @Value("${jwt.algorithm:RS256}")
    private String algorithm;

    @Value("${jwt.key-type:RSA}")
    private String keyType;

    private Key key;

    public String algorithm() { return algorithm; }
}
