package com.example.tools;

import java.security.KeyPair;

public class KeyTool {
    public static void main(String[] args) throws Exception {
        java.security.KeyPairGenerator generator = java.security.KeyPairGenerator.getInstance("RSA"); // expect: key-generation RSA
        generator.initialize(4096);
        KeyPair pair = generator.generateKeyPair();
        javax.crypto.Cipher cipher = javax.crypto.Cipher.getInstance("RSA"); // expect: encryption RSA
        cipher.init(javax.crypto.Cipher.ENCRYPT_MODE, pair.getPublic());
        System.out.println(cipher.doFinal(args[0].getBytes()).length);
    }
}
