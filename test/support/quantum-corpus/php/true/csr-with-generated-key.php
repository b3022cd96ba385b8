<?php

$dn = ['commonName' => 'shop.example.com', 'organizationName' => 'Example'];
$privkey = openssl_pkey_new(['private_key_bits' => 2048, 'private_key_type' => OPENSSL_KEYTYPE_RSA]); // expect: key-generation RSA
$csr = openssl_csr_new($dn, $privkey, ['digest_alg' => 'sha256']); // expect: signature RSA
$x509 = openssl_csr_sign($csr, null, $privkey, 365);
openssl_x509_export($x509, $certout);
