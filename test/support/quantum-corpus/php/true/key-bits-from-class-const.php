<?php

namespace App\Security;

final class LicenseKeyGenerator
{
    private const BITS = 1024;

    public function generate(): string
    {
        $key = openssl_pkey_new(['private_key_bits' => self::BITS, 'private_key_type' => OPENSSL_KEYTYPE_RSA]); // expect: key-generation RSA
        openssl_pkey_export($key, $pem);
        return $pem;
    }
}
