<?php

namespace App\Providers;

use Illuminate\Support\ServiceProvider;
use phpseclib3\Crypt\RSA;

class SigningServiceProvider extends ServiceProvider
{
    public function register(): void
    {
        $this->app->singleton('signing.key', function () {
            $bits = (int) config('signing.bits', 3072);
            return RSA::createKey($bits); // expect: key-generation RSA
        });
    }
}
