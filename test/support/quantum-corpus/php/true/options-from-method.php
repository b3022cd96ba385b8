<?php

namespace App\Keys;

class KeyOptions
{
    public static function rsa(): array
    {
        return ['private_key_bits' => 3072, 'private_key_type' => OPENSSL_KEYTYPE_RSA];
    }
}

class KeyMaker
{
    public function make()
    {
        return openssl_pkey_new(KeyOptions::rsa()); // expect: key-generation RSA
    }
}
