<?php

final class DeterministicKeys
{
    public function signing(string $seed): string
    {
        return sodium_crypto_sign_seed_keypair($seed); // expect: key-generation EdDSA
    }

    public function shared(string $secret, string $peer): string
    {
        return sodium_crypto_scalarmult($secret, $peer); // expect: key-agreement X25519
    }
}
