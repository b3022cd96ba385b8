import { generateKeyPairSync, publicEncrypt, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unwrapSecret } from '../src/secrets';

describe('unwrapSecret', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 }); // expect: key-generation RSA

  it('round-trips a secret', () => {
    const sealed = publicEncrypt(publicKey, Buffer.from('hunter2')); // expect: encryption RSA
    expect(unwrapSecret(privateKey, sealed)).toBe('hunter2');
  });

  it('matches the raw decrypt', () => {
    const sealed = publicEncrypt(publicKey, Buffer.from('x')); // expect: encryption RSA
    expect(privateDecrypt(privateKey, sealed).toString()).toBe('x'); // expect: encryption RSA
  });
});
