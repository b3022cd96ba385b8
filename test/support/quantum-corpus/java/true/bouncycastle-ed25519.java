package com.example.iot;

import java.security.SecureRandom;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.agreement.X25519Agreement;
import org.bouncycastle.crypto.generators.Ed25519KeyPairGenerator;
import org.bouncycastle.crypto.params.Ed25519KeyGenerationParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

public class DeviceIdentity {
    public AsymmetricCipherKeyPair generate() {
        Ed25519KeyPairGenerator generator = new Ed25519KeyPairGenerator(); // expect: key-generation EdDSA
        generator.init(new Ed25519KeyGenerationParameters(new SecureRandom()));
        return generator.generateKeyPair();
    }

    public byte[] sign(AsymmetricCipherKeyPair pair, byte[] message) throws Exception {
        Ed25519Signer signer = new Ed25519Signer(); // expect: signature EdDSA
        signer.init(true, pair.getPrivate());
        signer.update(message, 0, message.length);
        return signer.generateSignature();
    }

    public X25519Agreement agreement() {
        return new X25519Agreement(); // expect: key-agreement X25519
    }
}
