<?php

namespace App\Command;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Output\OutputInterface;

#[AsCommand(name: 'app:keys:generate')]
class GenerateKeysCommand extends Command
{
    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $res = openssl_pkey_new(options: ['private_key_bits' => 2048]); // expect: key-generation RSA
        openssl_pkey_export($res, $privateKey);
        $output->writeln($privateKey);
        return Command::SUCCESS;
    }
}
