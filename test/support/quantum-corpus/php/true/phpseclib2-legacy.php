<?php

use phpseclib\Crypt\RSA;

class LegacyKeys
{
    public function make()
    {
        $rsa = new RSA();
        $keys = $rsa->createKey(1024); // expect: key-generation RSA
        return $keys['privatekey'];
    }

    public function decrypt($pem, $data)
    {
        $rsa = new RSA();
        $rsa->loadKey($pem); // expect: key-material RSA
        return $rsa->decrypt($data); // expect: encryption RSA
    }
}
