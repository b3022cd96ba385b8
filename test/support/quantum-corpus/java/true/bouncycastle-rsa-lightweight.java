package com.example.hsm;

import java.math.BigInteger;
import java.security.SecureRandom;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.encodings.OAEPEncoding;
import org.bouncycastle.crypto.engines.RSAEngine;
import org.bouncycastle.crypto.generators.RSAKeyPairGenerator;
import org.bouncycastle.crypto.params.RSAKeyGenerationParameters;
import org.bouncycastle.crypto.signers.PSSSigner;

public class LightweightRsa {
    private static final int STRENGTH = 2048;

    public AsymmetricCipherKeyPair generate(SecureRandom random) {
        RSAKeyPairGenerator generator = new RSAKeyPairGenerator(); // expect: key-generation RSA
        generator.init(new RSAKeyGenerationParameters(BigInteger.valueOf(65537), random, STRENGTH, 80));
        return generator.generateKeyPair();
    }

    public OAEPEncoding encryptor() {
        return new OAEPEncoding(new RSAEngine(), new SHA256Digest()); // expect: encryption RSA
    }

    public PSSSigner signer() {
        return new PSSSigner(new RSAEngine(), new SHA256Digest(), 32); // expect: signature RSA
    }
}
