package com.example.oidc;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;

public class OidcKeys {
    public RSAKey signingKey() throws Exception {
        return new RSAKeyGenerator(2048).keyID("sig-1").generate(); // expect: key-generation RSA
    }

    public ECKey encryptionKey() throws Exception {
        return new ECKeyGenerator(Curve.P_256).keyID("enc-1").generate(); // expect: key-generation ECDSA
    }

    public JWSHeader header() {
        return new JWSHeader(JWSAlgorithm.RS256); // expect: signature RSA
    }

    public RSASSASigner signer(RSAKey key) throws Exception {
        return new RSASSASigner(key); // expect: signature RSA
    }
}
