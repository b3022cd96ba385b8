<?php

use Lcobucci\JWT\Configuration;
use Lcobucci\JWT\Signer;
use Lcobucci\JWT\Signer\Key\InMemory;

$config = Configuration::forAsymmetricSigner(
    new Signer\Rsa\Sha256(), // expect: signature RSA
    InMemory::file(__DIR__ . '/private.pem'),
    InMemory::file(__DIR__ . '/public.pem')
);

$ecdsa = new Signer\Ecdsa\Sha384(); // expect: signature ECDSA
