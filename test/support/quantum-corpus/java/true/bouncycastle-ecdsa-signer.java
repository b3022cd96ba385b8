package com.example.wallet;

import java.security.SecureRandom;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.agreement.ECDHBasicAgreement;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.generators.ECKeyPairGenerator;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECKeyGenerationParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;

public class WalletKeys {
    private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256k1");
    private static final ECDomainParameters DOMAIN =
            new ECDomainParameters(CURVE.getCurve(), CURVE.getG(), CURVE.getN(), CURVE.getH());

    public AsymmetricCipherKeyPair create() {
        ECKeyPairGenerator generator = new ECKeyPairGenerator(); // expect: key-generation ECDSA
        generator.init(new ECKeyGenerationParameters(DOMAIN, new SecureRandom()));
        return generator.generateKeyPair();
    }

    public ECDSASigner signer() {
        return new ECDSASigner(); // expect: signature ECDSA
    }

    public ECDHBasicAgreement agreement() {
        return new ECDHBasicAgreement(); // expect: key-agreement ECDH
    }
}
