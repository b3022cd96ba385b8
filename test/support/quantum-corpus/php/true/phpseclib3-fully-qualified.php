<?php

$key = \phpseclib3\Crypt\RSA::loadPrivateKey(file_get_contents('/etc/app/key.pem')) // expect: key-material RSA
    ->withPadding(\phpseclib3\Crypt\RSA::SIGNATURE_PSS);
echo base64_encode($key->sign('payload')); // expect: signature RSA
