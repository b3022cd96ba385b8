<?php

return [
    'jwt' => [
        'algo' => 'RS256',
        'private_key_bits' => 2048,
        'private_key_type' => 'rsa',
        'curve_name' => 'prime256v1',
        'keys' => [
            'public' => env('JWT_PUBLIC_KEY'),
            'private' => env('JWT_PRIVATE_KEY'),
        ],
    ],
];
