package com.example.artifacts;

import java.security.MessageDigest;
import java.util.HexFormat;

public class Checksums {
    public String sha256(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }

    public String legacyMd5(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
    }
}
