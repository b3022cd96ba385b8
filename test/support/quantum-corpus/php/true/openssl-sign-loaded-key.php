<?php

namespace App\Webhooks;

class OutboundSigner
{
    public function __construct(private string $privateKeyPem)
    {
    }

    public function sign(string $body): string
    {
        $key = openssl_pkey_get_private($this->privateKeyPem);
        openssl_sign($body, $signature, $key, OPENSSL_ALGO_SHA256); // expect: signature RSA
        return base64_encode($signature);
    }

    public function verify(string $body, string $signature, string $publicPem): bool
    {
        return openssl_verify($body, base64_decode($signature), $publicPem, 'sha256WithRSAEncryption') === 1; // expect: signature RSA
    }
}
