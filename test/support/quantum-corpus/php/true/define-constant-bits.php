<?php

define('APP_KEY_BITS', 1024);
const APP_KEY_TYPE = OPENSSL_KEYTYPE_DSA;

function make_app_key()
{
    return openssl_pkey_new(array( // expect: key-generation DSA
        'private_key_bits' => APP_KEY_BITS,
        'private_key_type' => APP_KEY_TYPE,
    ));
}
