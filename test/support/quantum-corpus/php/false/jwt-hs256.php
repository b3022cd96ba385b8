<?php

use Firebase\JWT\JWT;
use Firebase\JWT\Key;

class SessionTokens
{
    public function __construct(private string $secret)
    {
    }

    public function issue(array $claims): string
    {
        return JWT::encode($claims, $this->secret, 'HS256');
    }

    public function read(string $token): object
    {
        return JWT::decode($token, new Key($this->secret, 'HS256'));
    }
}
