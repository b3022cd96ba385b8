<?php

$factory = 'openssl_pkey_new';
$key = call_user_func($factory, ['private_key_bits' => 2048]); // expect: key-generation RSA
$sign = fn(string $data) => openssl_sign($data, $signature, $key) ? $signature : null; // expect: signature RSA
echo base64_encode($sign('hello'));
