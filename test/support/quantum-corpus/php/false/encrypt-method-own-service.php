<?php

interface FieldCipher
{
    public function encrypt(string $plain): string;
    public function decrypt(string $cipher): string;
}

class CustomerExporter
{
    public function __construct(private FieldCipher $cipher)
    {
    }

    public function export(string $email): string
    {
        return $this->cipher->encrypt($email);
    }
}
