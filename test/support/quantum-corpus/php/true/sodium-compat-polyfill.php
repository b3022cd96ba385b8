<?php

require_once 'vendor/autoload.php';

$keypair = ParagonIE_Sodium_Compat::crypto_sign_keypair(); // expect: key-generation EdDSA
$secret = ParagonIE_Sodium_Compat::crypto_sign_secretkey($keypair);
$signature = ParagonIE_Sodium_Compat::crypto_sign_detached('message', $secret); // expect: signature EdDSA
$boxKeys = ParagonIE_Sodium_Compat::crypto_box_keypair(); // expect: key-agreement X25519
