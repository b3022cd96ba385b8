<?php

$cert = openssl_x509_read(file_get_contents('server.crt'));
$info = openssl_x509_parse($cert);
$days = (int) (($info['validTo_time_t'] - time()) / 86400);
echo "{$info['subject']['CN']} expires in {$days} days\n";
