<?php

require __DIR__ . '/vendor/autoload.php';

use phpseclib3\Crypt\RSA;

$private = RSA::createKey(2048); // expect: key-generation RSA
$public = $private->getPublicKey();

$ciphertext = $public->encrypt('secret'); // expect: encryption RSA
$signature = $private->sign('message'); // expect: signature RSA
var_dump($public->verify('message', $signature)); // expect: signature RSA
