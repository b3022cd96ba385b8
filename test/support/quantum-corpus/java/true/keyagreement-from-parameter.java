package com.example.channel;

import java.security.Key;
import javax.crypto.KeyAgreement;

public class Agreements {
    // The algorithm name arrives as a parameter; the only caller in the file passes "ECDH".
    public KeyAgreement open(String algorithm, Key key) throws Exception {
        KeyAgreement agreement = KeyAgreement.getInstance(algorithm); // expect: key-agreement ECDH
        agreement.init(key);
        return agreement;
    }

    public KeyAgreement ecdh(Key key) throws Exception {
        return open("ECDH", key);
    }
}
