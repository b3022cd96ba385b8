<?php

$key = sodium_crypto_secretbox_keygen();
$nonce = random_bytes(SODIUM_CRYPTO_SECRETBOX_NONCEBYTES);
$box = sodium_crypto_secretbox('attack at dawn', $nonce, $key);
$plain = sodium_crypto_secretbox_open($box, $nonce, $key);
$digest = sodium_crypto_generichash($plain);
