<?php

declare(strict_types=1);

namespace App\Releases;

final class ReleaseSigner
{
    public static function newKeyPair(): string
    {
        return sodium_crypto_sign_keypair(); // expect: key-generation EdDSA
    }

    public static function sign(string $artifact, string $secretKey): string
    {
        return sodium_crypto_sign_detached($artifact, $secretKey); // expect: signature EdDSA
    }

    public static function verify(string $signature, string $artifact, string $publicKey): bool
    {
        return sodium_crypto_sign_verify_detached($signature, $artifact, $publicKey); // expect: signature EdDSA
    }
}
