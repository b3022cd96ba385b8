<?php

namespace App\Services;

class DeviceKeyService
{
    private string $curve = 'prime256v1';

    public function create(): \OpenSSLAsymmetricKey
    {
        return openssl_pkey_new([ // expect: key-generation ECDSA
            'curve_name' => $this->curve,
            'private_key_type' => OPENSSL_KEYTYPE_EC,
        ]);
    }
}
