<?php

$type = OPENSSL_KEYTYPE_EC;
$curve = 'secp521r1';
$options = ['private_key_type' => $type, 'curve_name' => $curve];
$ec = openssl_pkey_new($options); // expect: key-generation ECDSA
openssl_sign('data', $sig, $ec, OPENSSL_ALGO_SHA512); // expect: signature ECDSA
