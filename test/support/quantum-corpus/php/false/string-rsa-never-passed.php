<?php

$labels = [
    'RSA' => 'RSA 2048 (legacy)',
    'EC' => 'prime256v1',
    'OKP' => 'Ed25519',
];
$algorithm = 'RS256';
printf("%s uses %s\n", $algorithm, $labels['RSA']);
