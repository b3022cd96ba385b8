<?php

use phpseclib3\Crypt\AES;

$cipher = new AES('gcm');
$cipher->setKey(random_bytes(32));
$cipher->setNonce(random_bytes(12));
$ciphertext = $cipher->encrypt('payload');
