<?php

function seal_for(array $recipientPems, string $message): array
{
    $keys = array_map('openssl_pkey_get_public', $recipientPems);
    openssl_seal($message, $sealed, $envelopeKeys, $keys, 'aes-256-cbc', $iv); // expect: encryption RSA
    return [$sealed, $envelopeKeys, $iv];
}
