<?php

function register(string $email, string $password): array
{
    return ['email' => $email, 'hash' => password_hash($password, PASSWORD_BCRYPT, ['cost' => 12])];
}

function login(array $user, string $password): bool
{
    return password_verify($password, $user['hash']);
}
