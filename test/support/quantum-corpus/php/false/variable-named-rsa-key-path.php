<?php

$rsaKeyPath = getenv('RSA_KEY_PATH') ?: __DIR__ . '/keys/rsa.pem';
$ecdsaPublicKeyFile = __DIR__ . '/keys/ecdsa.pub';

if (!is_readable($rsaKeyPath)) {
    fwrite(STDERR, "missing {$rsaKeyPath}\n");
    exit(1);
}
echo filesize($ecdsaPublicKeyFile), PHP_EOL;
