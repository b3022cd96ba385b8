import { describe, expect, test } from 'vitest';
import {
  type AlgorithmAsset,
  boundedName,
  type PublicKeyFacts,
  publicKeyAsset,
  signatureAsset,
} from './cbom-algorithms';
import { symmetricAsset } from './cbom-symmetric';
import { describeCipherSuite, groupAsset } from './cbom-tls';
import type { CbomSymmetricKind } from './cbom-types';

type Expected = Pick<AlgorithmAsset, 'name' | 'primitive'> & Partial<AlgorithmAsset>;

const key = (partial: Partial<PublicKeyFacts> & Pick<PublicKeyFacts, 'algorithm'>) => ({
  keySize: null,
  curve: null,
  use: 'other' as const,
  ...partial,
});

describe('public-key algorithms: names, primitives and security levels', () => {
  test.each<[string, PublicKeyFacts, Expected]>([
    [
      'rsa-2048-keygen',
      key({ algorithm: 'RSA', keySize: 2048 }),
      {
        name: 'RSA-2048',
        primitive: 'pke',
        classicalSecurityLevel: 112,
        nistQuantumSecurityLevel: 0,
      },
    ],
    [
      'rsa-3072-signature',
      key({ algorithm: 'RSA', keySize: 3072, use: 'signature' }),
      { name: 'RSA-3072', primitive: 'signature', classicalSecurityLevel: 128 },
    ],
    [
      'rsa-4096',
      key({ algorithm: 'RSA', keySize: 4096 }),
      { name: 'RSA-4096', primitive: 'pke', classicalSecurityLevel: 128 },
    ],
    [
      'rsa-512-has-no-level',
      key({ algorithm: 'RSA', keySize: 512 }),
      { name: 'RSA-512', primitive: 'pke', nistQuantumSecurityLevel: 0 },
    ],
    [
      'rsa-unknown-size',
      key({ algorithm: 'RSA' }),
      { name: 'RSA', primitive: 'pke', nistQuantumSecurityLevel: 0 },
    ],
    [
      'dsa-1024',
      key({ algorithm: 'DSA', keySize: 1024 }),
      { name: 'DSA-1024', primitive: 'signature', classicalSecurityLevel: 80 },
    ],
    [
      'dh-2048',
      key({ algorithm: 'DH', keySize: 2048 }),
      { name: 'DH-2048', primitive: 'key-agree', classicalSecurityLevel: 112 },
    ],
    [
      'ecdsa-prime256v1-alias',
      key({ algorithm: 'ECDSA', curve: 'prime256v1' }),
      {
        name: 'ECDSA-P-256',
        primitive: 'signature',
        curve: 'P-256',
        classicalSecurityLevel: 128,
        nistQuantumSecurityLevel: 0,
      },
    ],
    [
      'ecdsa-p384',
      key({ algorithm: 'ECDSA', curve: 'P-384' }),
      { name: 'ECDSA-P-384', primitive: 'signature', classicalSecurityLevel: 192 },
    ],
    [
      'ecdsa-p521',
      key({ algorithm: 'ECDSA', curve: 'secp521r1' }),
      { name: 'ECDSA-P-521', primitive: 'signature', classicalSecurityLevel: 256 },
    ],
    [
      'ecdh-p224',
      key({ algorithm: 'ECDH', curve: 'P-224' }),
      { name: 'ECDH-P-224', primitive: 'key-agree', classicalSecurityLevel: 112 },
    ],
    [
      'ec-size-only',
      key({ algorithm: 'ECDSA', keySize: 384 }),
      { name: 'ECDSA-384', primitive: 'signature', classicalSecurityLevel: 192 },
    ],
    [
      'ecdh-on-curve25519-is-x25519',
      key({ algorithm: 'ECDH', curve: 'X25519' }),
      {
        name: 'X25519',
        primitive: 'key-agree',
        curve: 'Curve25519',
        classicalSecurityLevel: 128,
        nistQuantumSecurityLevel: 0,
      },
    ],
    [
      'x448',
      key({ algorithm: 'X448' }),
      { name: 'X448', primitive: 'key-agree', classicalSecurityLevel: 224 },
    ],
    [
      'eddsa-ed448',
      key({ algorithm: 'EdDSA', curve: 'Ed448' }),
      { name: 'Ed448', primitive: 'signature', classicalSecurityLevel: 224 },
    ],
    [
      'eddsa-without-curve',
      key({ algorithm: 'EdDSA' }),
      { name: 'EdDSA', primitive: 'signature', nistQuantumSecurityLevel: 0 },
    ],
    [
      'ml-kem-512-from-size',
      key({ algorithm: 'ML-KEM', keySize: 512 }),
      {
        name: 'ML-KEM-512',
        primitive: 'kem',
        classicalSecurityLevel: 128,
        nistQuantumSecurityLevel: 1,
      },
    ],
    [
      'ml-kem-1024-by-name',
      key({ algorithm: 'ML-KEM-1024' }),
      {
        name: 'ML-KEM-1024',
        primitive: 'kem',
        nistQuantumSecurityLevel: 5,
        oid: '2.16.840.1.101.3.4.4.3',
      },
    ],
    [
      'ml-kem-family-lower-bound',
      key({ algorithm: 'ML-KEM' }),
      { name: 'ML-KEM', primitive: 'kem', nistQuantumSecurityLevel: 1 },
    ],
    [
      'ml-dsa-44',
      key({ algorithm: 'ML-DSA', parameterSet: 'ML-DSA-44' }),
      {
        name: 'ML-DSA-44',
        primitive: 'signature',
        classicalSecurityLevel: 128,
        nistQuantumSecurityLevel: 2,
      },
    ],
    [
      'ml-dsa-87',
      key({ algorithm: 'ML-DSA-87' }),
      {
        name: 'ML-DSA-87',
        primitive: 'signature',
        classicalSecurityLevel: 256,
        nistQuantumSecurityLevel: 5,
      },
    ],
    [
      'ml-dsa-family-lower-bound',
      key({ algorithm: 'ML-DSA' }),
      { name: 'ML-DSA', primitive: 'signature', nistQuantumSecurityLevel: 2 },
    ],
    [
      'slh-dsa-192s',
      key({ algorithm: 'SLH-DSA', parameterSet: 'SLH-DSA-SHAKE-192s' }),
      {
        name: 'SLH-DSA-SHAKE-192s',
        primitive: 'signature',
        parameterSetIdentifier: 'SHAKE-192s',
        nistQuantumSecurityLevel: 3,
        oid: '2.16.840.1.101.3.4.3.28',
      },
    ],
    [
      'composite-signature',
      key({ algorithm: 'composite', parameterSet: 'MLDSA65-ECDSA-P256-SHA512' }),
      { name: 'MLDSA65-ECDSA-P256-SHA512', primitive: 'signature', nistQuantumSecurityLevel: 3 },
    ],
    [
      'composite-without-name',
      key({ algorithm: 'composite' }),
      { name: 'composite', primitive: 'signature' },
    ],
    ['unknown-key', key({ algorithm: 'unknown' }), { name: 'unknown', primitive: 'unknown' }],
    [
      'other-name-by-use',
      key({ algorithm: 'ElGamal', use: 'encryption' }),
      { name: 'ElGamal', primitive: 'pke' },
    ],
  ])('%s', (_scenario, facts, expected) => {
    const asset = publicKeyAsset(facts);
    expect(asset).toMatchObject(expected);
    if (!('classicalSecurityLevel' in expected) && /^RSA(-512)?$/.test(expected.name)) {
      expect(asset.classicalSecurityLevel).toBeUndefined();
    }
  });
});

describe('symmetric algorithms and hashes', () => {
  test.each<[string, string, CbomSymmetricKind, Expected]>([
    [
      'aes-128-gcm',
      'AES-128-GCM',
      'ae',
      {
        name: 'AES-128-GCM',
        primitive: 'ae',
        mode: 'gcm',
        classicalSecurityLevel: 128,
        nistQuantumSecurityLevel: 1,
        oid: '2.16.840.1.101.3.4.1.6',
      },
    ],
    [
      'aes-192-cbc',
      'aes-192-cbc',
      'block-cipher',
      {
        name: 'AES-192-CBC',
        primitive: 'block-cipher',
        mode: 'cbc',
        nistQuantumSecurityLevel: 3,
        oid: '2.16.840.1.101.3.4.1.22',
      },
    ],
    [
      'aes-256-jca-spelling',
      'AES_256/GCM/NoPadding',
      'ae',
      { name: 'AES-256-GCM', primitive: 'ae', nistQuantumSecurityLevel: 5 },
    ],
    ['aes-without-size', 'AES-GCM', 'ae', { name: 'AES-GCM', primitive: 'ae', mode: 'gcm' }],
    [
      'chacha20-poly1305',
      'ChaCha20-Poly1305',
      'ae',
      {
        name: 'ChaCha20-Poly1305',
        primitive: 'ae',
        classicalSecurityLevel: 256,
        nistQuantumSecurityLevel: 5,
      },
    ],
    [
      '3des',
      'DESede/CBC/PKCS5Padding',
      'block-cipher',
      {
        name: '3DES-CBC',
        primitive: 'block-cipher',
        classicalSecurityLevel: 112,
        nistQuantumSecurityLevel: 0,
      },
    ],
    [
      'des',
      'DES',
      'block-cipher',
      {
        name: 'DES',
        primitive: 'block-cipher',
        classicalSecurityLevel: 56,
        nistQuantumSecurityLevel: 0,
      },
    ],
    [
      'rc4',
      'RC4',
      'stream-cipher',
      { name: 'RC4', primitive: 'stream-cipher', nistQuantumSecurityLevel: 0 },
    ],
    [
      'sha-256',
      'sha256',
      'hash',
      {
        name: 'SHA-256',
        primitive: 'hash',
        classicalSecurityLevel: 128,
        nistQuantumSecurityLevel: 2,
      },
    ],
    [
      'sha-384',
      'SHA-384',
      'hash',
      {
        name: 'SHA-384',
        primitive: 'hash',
        classicalSecurityLevel: 192,
        nistQuantumSecurityLevel: 4,
      },
    ],
    [
      'sha3-512',
      'sha3_512',
      'hash',
      {
        name: 'SHA3-512',
        primitive: 'hash',
        classicalSecurityLevel: 256,
        nistQuantumSecurityLevel: 5,
      },
    ],
    [
      'sha-224-below-category-1',
      'SHA-224',
      'hash',
      {
        name: 'SHA-224',
        primitive: 'hash',
        classicalSecurityLevel: 112,
        nistQuantumSecurityLevel: 0,
      },
    ],
    [
      'blake2b-default',
      'BLAKE2b',
      'hash',
      { name: 'BLAKE2b', primitive: 'hash', classicalSecurityLevel: 256 },
    ],
    [
      'shake128-is-xof',
      'SHAKE128',
      'hash',
      { name: 'SHAKE128', primitive: 'xof', parameterSetIdentifier: '128' },
    ],
    [
      'hmac-sha256',
      'HMAC-SHA256',
      'mac',
      { name: 'HMAC-SHA-256', primitive: 'mac', oid: '1.2.840.113549.2.9' },
    ],
    ['hmac-bare', 'HMAC', 'mac', { name: 'HMAC', primitive: 'mac' }],
    ['pbkdf2', 'PBKDF2', 'kdf', { name: 'PBKDF2', primitive: 'kdf' }],
    ['unknown-cipher', 'Twofish', 'block-cipher', { name: 'Twofish', primitive: 'block-cipher' }],
  ])('%s', (_scenario, name, kind, expected) => {
    expect(symmetricAsset(name, kind)).toMatchObject(expected);
  });

  test.each(['MD5', 'SHA-1', 'sha1', 'MD4'])(
    '%s is collision-broken: category 0, no bit count',
    (name) => {
      const asset = symmetricAsset(name, 'hash');
      expect(asset.nistQuantumSecurityLevel).toBe(0);
      expect(asset.classicalSecurityLevel).toBeUndefined();
    },
  );

  test('MACs and KDFs get no level: the key decides', () => {
    for (const asset of [symmetricAsset('HMAC-SHA-512', 'mac'), symmetricAsset('HKDF', 'kdf')]) {
      expect(asset.classicalSecurityLevel).toBeUndefined();
      expect(asset.nistQuantumSecurityLevel).toBeUndefined();
    }
  });
});

describe('certificate signature algorithms', () => {
  test.each<[string, Expected]>([
    [
      'sha256WithRSAEncryption',
      {
        name: 'sha256WithRSAEncryption',
        primitive: 'signature',
        nistQuantumSecurityLevel: 0,
        oid: '1.2.840.113549.1.1.11',
      },
    ],
    [
      'ECDSA-WITH-SHA384',
      { name: 'ecdsa-with-SHA384', primitive: 'signature', oid: '1.2.840.10045.4.3.3' },
    ],
    ['ED25519', { name: 'Ed25519', primitive: 'signature', curve: 'Ed25519' }],
    ['ML-DSA-87', { name: 'ML-DSA-87', primitive: 'signature', nistQuantumSecurityLevel: 5 }],
    [
      'MLDSA44-RSA2048-PSS-SHA256',
      { name: 'MLDSA44-RSA2048-PSS-SHA256', primitive: 'signature', nistQuantumSecurityLevel: 2 },
    ],
    ['1.3.9999.1', { name: '1.3.9999.1', primitive: 'signature', oid: '1.3.9999.1' }],
  ])('%s', (name, expected) => {
    expect(signatureAsset(name)).toMatchObject(expected);
  });
});

describe('TLS groups and cipher suites', () => {
  test.each<[string, Expected]>([
    ['x25519', { name: 'X25519', primitive: 'key-agree', nistQuantumSecurityLevel: 0 }],
    ['secp384r1', { name: 'ECDH-P-384', primitive: 'key-agree', classicalSecurityLevel: 192 }],
    [
      'X25519MLKEM768',
      {
        name: 'X25519MLKEM768',
        primitive: 'kem',
        classicalSecurityLevel: 192,
        nistQuantumSecurityLevel: 3,
      },
    ],
    [
      'SecP384r1MLKEM1024',
      { name: 'SecP384r1MLKEM1024', primitive: 'kem', nistQuantumSecurityLevel: 5 },
    ],
    ['MLKEM1024', { name: 'ML-KEM-1024', primitive: 'kem', nistQuantumSecurityLevel: 5 }],
    [
      'ffdhe3072',
      {
        name: 'ffdhe3072',
        primitive: 'key-agree',
        classicalSecurityLevel: 128,
        nistQuantumSecurityLevel: 0,
      },
    ],
    ['X25519Kyber768Draft00', { name: 'X25519Kyber768Draft00', primitive: 'kem' }],
  ])('group %s', (name, expected) => {
    expect(groupAsset(name)).toMatchObject(expected);
  });

  test.each<[string, string | null, string | null, string, string[], string[]]>([
    [
      'tls13-hybrid',
      'TLS_AES_256_GCM_SHA384',
      'X25519MLKEM768',
      'TLS_AES_256_GCM_SHA384',
      ['0x13', '0x02'],
      ['X25519MLKEM768', 'AES-256-GCM', 'SHA-384'],
    ],
    [
      'tls13-chacha',
      'TLS_CHACHA20_POLY1305_SHA256',
      'x25519',
      'TLS_CHACHA20_POLY1305_SHA256',
      ['0x13', '0x03'],
      ['X25519', 'ChaCha20-Poly1305', 'SHA-256'],
    ],
    [
      'tls12-openssl-ecdhe-rsa',
      'ECDHE-RSA-AES128-GCM-SHA256',
      'secp256r1',
      'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
      ['0xC0', '0x2F'],
      ['ECDH-P-256', 'RSA', 'AES-128-GCM', 'SHA-256'],
    ],
    [
      'tls12-rsa-key-transport-cbc',
      'AES256-SHA',
      null,
      'TLS_RSA_WITH_AES_256_CBC_SHA',
      ['0x00', '0x35'],
      ['RSA', 'AES-256-CBC', 'HMAC-SHA-1'],
    ],
    [
      'tls12-3des',
      'DES-CBC3-SHA',
      null,
      'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
      ['0x00', '0x0A'],
      ['RSA', '3DES-CBC', 'HMAC-SHA-1'],
    ],
    [
      'tls12-iana-dhe-unlisted',
      'TLS_DHE_RSA_WITH_AES_256_CCM',
      null,
      'TLS_DHE_RSA_WITH_AES_256_CCM',
      [],
      ['DH', 'RSA', 'AES-256-CCM'],
    ],
    [
      'openssl-unlisted',
      'ECDHE-ECDSA-CAMELLIA256-SHA384',
      'secp384r1',
      'ECDHE-ECDSA-CAMELLIA256-SHA384',
      [],
      ['ECDH-P-384', 'ECDSA', 'CAMELLIA-256-CBC', 'HMAC-SHA-384'],
    ],
    ['group-only', null, 'x25519', '', [], ['X25519']],
    ['garbage', 'not a suite', null, 'not a suite', [], []],
  ])('%s', (_scenario, suite, group, name, identifiers, algorithms) => {
    const described = describeCipherSuite(suite, group);
    expect(described.name).toBe(name);
    expect(described.identifiers).toEqual(identifiers);
    expect(described.assets.map((asset) => asset.name)).toEqual(algorithms);
  });

  test('an ECDHE suite authenticated by RSA names RSA as a signature, key transport as pke', () => {
    const [, auth] = describeCipherSuite('ECDHE-RSA-AES128-GCM-SHA256', 'x25519').assets;
    expect(auth?.primitive).toBe('signature');
    const [transport] = describeCipherSuite('AES128-GCM-SHA256', null).assets;
    expect(transport?.primitive).toBe('pke');
  });
});

test('names are bounded and lose their control characters', () => {
  expect(boundedName(' RSA\n')).toBe('RSA');
  expect(boundedName('a\u0000b\u001bc')).toBe('a\ufffdb\ufffdc');
  expect(boundedName('x'.repeat(1000))).toHaveLength(201);
  expect(boundedName(null)).toBe('');
});
