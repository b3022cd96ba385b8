<?php

$config = [
    'digest_alg' => 'sha256',
    'private_key_bits' => 4096,
    'private_key_type' => OPENSSL_KEYTYPE_RSA,
];

$resource = openssl_pkey_new($config); // expect: key-generation RSA
openssl_pkey_export_to_file($resource, __DIR__ . '/storage/oauth-private.key');
$details = openssl_pkey_get_details($resource);
file_put_contents(__DIR__ . '/storage/oauth-public.key', $details['key']);
