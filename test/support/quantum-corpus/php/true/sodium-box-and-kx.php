<?php

$alice = sodium_crypto_box_keypair(); // expect: key-agreement X25519
$bob = sodium_crypto_kx_keypair(); // expect: key-agreement X25519
$sealed = sodium_crypto_box_seal('hello', sodium_crypto_box_publickey($alice)); // expect: key-agreement X25519
[$rx, $tx] = sodium_crypto_kx_client_session_keys($bob, $serverPublic); // expect: key-agreement X25519
