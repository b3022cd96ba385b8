import { describe, expect, it } from 'vitest';
import { isCandidateCryptoFile, MAX_CRYPTO_FILE_BYTES, sniffCryptoContent } from './candidates.js';

describe('isCandidateCryptoFile', () => {
  const table: [string, string, number, boolean][] = [
    ['pem-certificate', 'deploy/tls/server.pem', 2_000, true],
    ['crt-upper-case', 'certs/CA.CRT', 1_500, true],
    ['der-cer', 'certs/root.cer', 900, true],
    ['pkcs12', 'src/main/resources/client.p12', 3_000, true],
    ['pfx', 'windows/signing.pfx', 3_000, true],
    ['p7b-bundle', 'chain.p7b', 4_000, true],
    ['java-keystore', 'src/main/resources/keystore.jks', 2_000, true],
    ['java-truststore', 'conf/server.truststore', 2_000, true],
    ['jdk-cacerts', 'jre/lib/security/cacerts', 150_000, true],
    ['openssh-private', 'ops/.ssh/id_ed25519', 400, true],
    ['openssh-public', 'ops/.ssh/id_rsa.pub', 400, true],
    ['authorized-keys', 'ansible/files/authorized_keys', 800, true],
    ['ssh-host-key', 'docker/ssh_host_ecdsa_key', 500, true],
    ['windows-path', 'certs\\server.key', 1_700, true],
    ['known-hosts-is-not-ours', 'ops/.ssh/known_hosts', 800, false],
    ['source-file', 'src/tls.ts', 2_000, false],
    ['dotfile-named-pem', '.pem', 10, false],
    ['empty-file', 'server.pem', 0, false],
    ['over-the-cap', 'bundle.pem', MAX_CRYPTO_FILE_BYTES + 1, false],
  ];
  it.each(table)('%s', (_scenario, path, size, expected) => {
    expect(isCandidateCryptoFile(path, size)).toBe(expected);
  });
});

describe('sniffCryptoContent', () => {
  const table: [string, string, string, boolean][] = [
    ['pem-in-yaml', 'values.yaml', 'tls:\n  cert: |\n    -----BEGIN CERTIFICATE-----\n', true],
    [
      'ssh-key-in-cloud-init',
      'cloud-init.yml',
      'ssh_authorized_keys:\n  - ssh-ed25519 AAAAC3Nza',
      true,
    ],
    ['ecdsa-key-in-terraform', 'main.tf', 'public_key = "ecdsa-sha2-nistp256 AAAAE2Vj"', true],
    ['key-type-named-in-code', 'ssh.go', 'if t == "ssh-rsa " { return }', false],
    ['plain-source', 'main.go', 'package main\n', false],
    ['known-hosts-skipped', 'known_hosts', 'github.com ssh-ed25519 AAAAC3Nza', false],
  ];
  it.each(table)('%s', (_scenario, path, text, expected) => {
    expect(sniffCryptoContent(path, Buffer.from(text))).toBe(expected);
  });

  it('does not read files over the cap', () => {
    const big = Buffer.alloc(MAX_CRYPTO_FILE_BYTES + 1, 0x20);
    big.write('-----BEGIN CERTIFICATE-----', 0);
    expect(sniffCryptoContent('x.txt', big)).toBe(false);
  });
});
