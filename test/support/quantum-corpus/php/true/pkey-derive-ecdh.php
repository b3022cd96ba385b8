<?php

$local = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']); // expect: key-generation ECDSA
$peer = openssl_pkey_get_public(file_get_contents('peer.pem'));
$secret = openssl_pkey_derive($peer, $local, 32); // expect: key-agreement ECDH
echo bin2hex($secret);
