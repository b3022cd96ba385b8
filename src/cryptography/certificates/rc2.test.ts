import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rc2CbcDecrypt, rc2DecryptBlock, rc2KeySchedule } from './rc2.js';

describe('RC2 (RFC 2268)', () => {
  // Section 5 test vectors: key, effective bits, plaintext, ciphertext.
  const vectors: [string, number, string, string][] = [
    ['0000000000000000', 63, '0000000000000000', 'ebb773f993278eff'],
    ['ffffffffffffffff', 64, 'ffffffffffffffff', '278b27e42e2f0d49'],
    ['3000000000000000', 64, '1000000000000001', '30649edf9be7d2c2'],
    ['88', 64, '0000000000000000', '61a8a244adacccf0'],
    ['88bca90e90875a', 64, '0000000000000000', '6ccf4308974c267f'],
    ['88bca90e90875a7f0f79c384627bafb2', 64, '0000000000000000', '1a807d272bbe5db1'],
    ['88bca90e90875a7f0f79c384627bafb2', 128, '0000000000000000', '2269552ab0f85ca6'],
  ];
  it.each(vectors)('key %s, %i effective bits', (key, bits, plaintext, ciphertext) => {
    const block = Buffer.from(ciphertext, 'hex');
    rc2DecryptBlock(rc2KeySchedule(Buffer.from(key, 'hex'), bits), block);
    expect(block.toString('hex')).toBe(plaintext);
  });

  it('decrypts what openssl encrypts with RC2-40-CBC (legacy provider), when it can', () => {
    const key = randomBytes(5);
    const iv = randomBytes(8);
    const plaintext = randomBytes(77);
    let ciphertext: Buffer;
    try {
      ciphertext = execFileSync(
        'openssl',
        [
          'enc',
          '-rc2-40-cbc',
          '-provider',
          'legacy',
          '-provider',
          'default',
          '-K',
          key.toString('hex'),
          '-iv',
          iv.toString('hex'),
        ],
        { input: plaintext, stdio: ['pipe', 'pipe', 'ignore'] },
      );
    } catch {
      return; // no legacy provider on this machine: the RFC vectors above still hold
    }
    expect(rc2CbcDecrypt(key, 40, iv, ciphertext)?.equals(plaintext)).toBe(true);
  });

  it('answers undefined for a wrong key instead of garbage, most of the time', () => {
    const ciphertext = randomBytes(64);
    const results = Array.from({ length: 20 }, () =>
      rc2CbcDecrypt(randomBytes(5), 40, randomBytes(8), ciphertext),
    );
    expect(results.filter((result) => result !== undefined).length).toBeLessThan(5);
  });
});
