<?php

use PHPUnit\Framework\TestCase;

final class TokenHeaderTest extends TestCase
{
    public function testHeaderNamesRs256(): void
    {
        $header = json_decode(base64_decode(explode('.', $this->token())[0]), true);
        $this->assertSame('RS256', $header['alg']);
        $this->assertNotSame('ES256', $header['alg']);
    }
}
