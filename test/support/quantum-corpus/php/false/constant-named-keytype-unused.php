<?php

class Algorithms
{
    public const DEFAULT_TYPE = OPENSSL_KEYTYPE_RSA;
    public const DEFAULT_BITS = 2048;
    public const SUPPORTED = ['RS256', 'ES256'];
}

echo Algorithms::DEFAULT_BITS;
