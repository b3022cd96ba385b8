<?php

class LegacyLicense
{
    public function sign(string $license, $privateKey): string
    {
        openssl_private_encrypt(hash('sha1', $license, true), $signature, $privateKey); // expect: signature RSA
        return base64_encode($signature);
    }

    public function check(string $license, string $signature, $publicKey): bool
    {
        openssl_public_decrypt(base64_decode($signature), $digest, $publicKey); // expect: signature RSA
        return hash_equals(hash('sha1', $license, true), $digest);
    }
}
