<?php

class Contract
{
    private ?string $signedBy = null;

    public function sign(string $name): void
    {
        $this->signedBy = $name;
    }

    public function verify(): bool
    {
        return $this->signedBy !== null;
    }
}

$contract = new Contract();
$contract->sign('alice');
var_dump($contract->verify());
