<?php

use Firebase\JWT\JWT;
use Firebase\JWT\Key;

class TokenController
{
    public function issue(array $claims, string $privateKey): string
    {
        return JWT::encode($claims, $privateKey, 'RS256'); // expect: signature RSA
    }

    public function read(string $jwt, string $publicKey): object
    {
        return JWT::decode($jwt, new Key($publicKey, 'ES384')); // expect: signature ECDSA
    }
}
