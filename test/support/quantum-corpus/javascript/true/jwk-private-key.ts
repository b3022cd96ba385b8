import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

export function fromJwk(jwk: { n: string; e: string; d: string }): KeyObject {
  return createPrivateKey({ key: { kty: 'RSA', ...jwk }, format: 'jwk' }); // expect: key-material RSA
}

export function fromPkcs1(der: Buffer): KeyObject {
  return createPublicKey({ key: der, format: 'der', type: 'pkcs1' }); // expect: key-material RSA
}
