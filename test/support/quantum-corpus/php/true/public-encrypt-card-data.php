<?php

function encrypt_card(string $pan, string $publicKeyPem): string
{
    if (!openssl_public_encrypt($pan, $encrypted, $publicKeyPem, OPENSSL_PKCS1_OAEP_PADDING)) { // expect: encryption RSA
        throw new RuntimeException('encryption failed');
    }
    return base64_encode($encrypted);
}

function decrypt_card(string $blob, $privateKey): string
{
    openssl_private_decrypt(base64_decode($blob), $plain, $privateKey, OPENSSL_PKCS1_OAEP_PADDING); // expect: encryption RSA
    return $plain;
}
