package com.example.config;

import java.security.PublicKey;
import org.springframework.boot.context.properties.ConfigurationProperties;

@ConfigurationProperties(prefix = "auth.jwt")
public class JwtProperties {
    private String algorithm = "RS256";
    private String keyType = "RSA";
    private int keySize = 3072;
    private PublicKey cachedKey;

    public String getAlgorithm() { return algorithm; }
    public void setAlgorithm(String algorithm) { this.algorithm = algorithm; }
    public String getKeyType() { return keyType; }
    public int getKeySize() { return keySize; }
}
