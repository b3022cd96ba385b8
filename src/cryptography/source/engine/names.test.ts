import { describe, expect, it } from 'vitest';
import {
  cipherName,
  curveName,
  hashName,
  joseAlgorithm,
  knownCurve,
  modpBits,
  signatureName,
} from './names.js';

describe('algorithm names', () => {
  it.each([
    ['secp256r1', 'P-256'],
    ['prime256v1', 'P-256'],
    ['NIST384p', 'P-384'],
    ['P_521', 'P-521'],
    ['SECP256K1', 'secp256k1'],
    ['curve25519', 'X25519'],
    ['BrainpoolP256R1', 'brainpoolP256r1'],
  ])('curve %s is %s', (written, usual) => {
    expect(knownCurve(written)).toBe(usual);
  });

  it('keeps an unknown curve literal as written, but not an empty or huge one', () => {
    expect(curveName('sect571k1')).toBe('sect571k1');
    expect(curveName('  ')).toBeUndefined();
    expect(curveName('x'.repeat(41))).toBeUndefined();
    expect(knownCurve('constructor')).toBeUndefined();
  });

  it.each([
    ['RS256', { algorithm: 'RSA', primitive: 'signature' }],
    ['ps512', { algorithm: 'RSA', primitive: 'signature' }],
    ['ES256K', { algorithm: 'ECDSA', primitive: 'signature', curve: 'secp256k1' }],
    ['EdDSA', { algorithm: 'EdDSA', primitive: 'signature' }],
    ['RSA-OAEP-256', { algorithm: 'RSA', primitive: 'encryption' }],
    ['ECDH-ES+A256KW', { algorithm: 'ECDH', primitive: 'key-agreement' }],
    ['HS384', { symmetric: { algorithm: 'HMAC-SHA384', kind: 'mac' } }],
  ])('JOSE %s', (name, meaning) => {
    expect(joseAlgorithm(name)).toEqual(meaning);
  });

  it.each([
    ['SHA256withRSA', 'RSA'],
    ['SHA256withRSA/PSS', 'RSA'],
    ['RSASSA-PSS', 'RSA'],
    ['SHA384withECDSA', 'ECDSA'],
    ['SHA256withECDSAinP1363Format', 'ECDSA'],
    ['SHA1withDSA', 'DSA'],
    ['Ed25519', 'EdDSA'],
    ['ML-DSA-65', 'ML-DSA'],
  ])('signature %s is %s', (name, algorithm) => {
    expect(signatureName(name)?.algorithm).toBe(algorithm);
  });

  it('reads hashes, ciphers and MODP groups', () => {
    expect(hashName('sha256')).toBe('SHA-256');
    expect(hashName('RSA-SHA1')).toBe('SHA-1');
    expect(hashName('sha3_512')).toBe('SHA3-512');
    expect(hashName('rot13')).toBeUndefined();
    expect(cipherName('aes-256-gcm')).toEqual({ algorithm: 'AES-256-GCM', kind: 'ae' });
    expect(cipherName('AES/CBC/PKCS5Padding')).toEqual({
      algorithm: 'AES-CBC',
      kind: 'block-cipher',
    });
    expect(cipherName('chacha20-poly1305')).toEqual({ algorithm: 'ChaCha20-Poly1305', kind: 'ae' });
    expect(cipherName('RSA/ECB/OAEPPadding')).toBeUndefined();
    expect(modpBits('modp14')).toBe(2048);
    expect(modpBits('toString')).toBeUndefined();
  });
});
