<?php

use Psr\Log\LoggerInterface;

class RotationReporter
{
    public function __construct(private LoggerInterface $logger)
    {
    }

    public function report(string $kid, int $bits): void
    {
        $this->logger->info("Rotated RSA key {$kid} ({$bits} bits) via openssl_pkey_new");
        $this->logger->warning('JWT::encode still uses RS256 for legacy clients');
        error_log('ECDSA P-256 key expires soon');
    }
}
