<?php

namespace App\Auth;

use Firebase\JWT\JWT;

class ServiceTokens
{
    protected static function algorithm(): string
    {
        return 'PS256';
    }

    public function mint(array $payload, $key): string
    {
        return JWT::encode($payload, $key, static::algorithm()); // expect: signature RSA
    }
}
