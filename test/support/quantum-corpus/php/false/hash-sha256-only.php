<?php

function cache_key(string $url): string
{
    return 'page:' . hash('sha256', $url);
}

function etag(string $body): string
{
    return '"' . md5($body) . '"';
}

function legacy_id(string $email): string
{
    return sha1(strtolower($email));
}
