<?php

namespace App\Auth;

use Firebase\JWT\JWT;

final class PartnerTokens
{
    private array $config = ['alg' => 'ES256', 'ttl' => 300];

    public function mint(array $claims, $privateKey): string
    {
        return JWT::encode($claims, $privateKey, $this->config['alg']); // expect: signature ECDSA
    }
}
