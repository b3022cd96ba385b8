<?php

use phpseclib3\Crypt\DH;

$parameters = DH::createParameters('diffie-hellman-group14-sha256'); // expect: key-agreement DH
$ours = DH::createKey($parameters); // expect: key-agreement DH
$shared = DH::computeSecret($ours, $theirPublic); // expect: key-agreement DH
