<?php

namespace App\Payments;

use phpseclib3\Crypt\RSA;

final class PayloadEncryptor
{
    public function __construct(private readonly RSA\PublicKey $gatewayKey)
    {
    }

    public function encrypt(string $payload): string
    {
        return base64_encode($this->gatewayKey->encrypt($payload)); // expect: encryption RSA
    }
}
