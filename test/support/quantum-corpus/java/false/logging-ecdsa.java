package com.example.inventory;

import java.security.MessageDigest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class InventoryReport {
    private static final Logger log = LoggerFactory.getLogger(InventoryReport.class);

    public void report(int rsa, int ecdsa) throws Exception {
        log.info("Generating ECDSA key inventory: {} keys", ecdsa);
        log.warn("{} RSA keys below 2048 bits; call KeyPairGenerator.getInstance(\"RSA\") with 3072", rsa);
        log.debug("digest {}", MessageDigest.getInstance("SHA-256").getAlgorithm());
    }
}
