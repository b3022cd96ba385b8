<?php

function generate_key(int $length = 32): string
{
    return bin2hex(random_bytes($length));
}

class ApiKeyService
{
    public function createKey(): string
    {
        return 'ak_' . generate_key(20);
    }
}

$service = new ApiKeyService();
echo $service->createKey();
