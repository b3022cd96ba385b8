package com.example.api;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;

public class Tokens {
    public String rsa(RSAPublicKey pub, RSAPrivateKey priv) {
        Algorithm algorithm = Algorithm.RSA256(pub, priv); // expect: signature RSA
        return JWT.create().withIssuer("api").sign(algorithm);
    }

    public String ec(ECPublicKey pub, ECPrivateKey priv) {
        return JWT.create().withIssuer("api").sign(Algorithm.ECDSA384(pub, priv)); // expect: signature ECDSA
    }
}
