<?php

namespace App\Crypto;

use phpseclib3\Crypt\EC as EllipticCurve;
use phpseclib3\Crypt\DSA;

class KeyFactory
{
    public function ecdsa(): EllipticCurve\PrivateKey
    {
        return EllipticCurve::createKey('secp256k1'); // expect: key-generation ECDSA
    }

    public function ed25519()
    {
        return EllipticCurve::createKey('Ed25519'); // expect: key-generation EdDSA
    }

    public function legacyDsa()
    {
        return DSA::createKey(1024); // expect: key-generation DSA
    }
}
