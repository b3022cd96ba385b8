<?php

namespace App\Support;

/**
 * Key helpers.
 *
 * Previously: openssl_pkey_new(['private_key_bits' => 1024, 'private_key_type' => OPENSSL_KEYTYPE_RSA]);
 * @see https://www.php.net/manual/en/function.openssl-sign.php for openssl_sign()
 */
class KeyNotes
{
    // TODO: drop RSA::createKey(2048) from the fixtures script
    # sodium_crypto_sign_keypair() is the replacement we evaluated
    public function status(): string
    {
        return 'pending';
    }
}
