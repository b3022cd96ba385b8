<?php

$key = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1']); // expect: key-generation ECDSA
$payload = json_encode(['order' => 42]);
openssl_sign($payload, $signature, $key, OPENSSL_ALGO_SHA384); // expect: signature ECDSA
echo base64_encode($signature);
