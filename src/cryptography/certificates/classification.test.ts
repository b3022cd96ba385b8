import { describe, expect, it } from 'vitest';
import {
  classifyCertificate,
  classifyKey,
  type KeyStrength,
  leastReady,
} from './classification.js';
import { signatureAlgorithmOf } from './oids.js';

describe('classifyCertificate', () => {
  const table: [string, KeyStrength, string, string][] = [
    [
      'rsa-2048-sha256',
      { algorithm: 'RSA', keySize: 2048 },
      '1.2.840.113549.1.1.11',
      'deprecated-2030',
    ],
    ['rsa-4096-sha1-is-weak', { algorithm: 'RSA', keySize: 4096 }, '1.2.840.113549.1.1.5', 'weak'],
    ['rsa-4096-md5-is-weak', { algorithm: 'RSA', keySize: 4096 }, '1.2.840.113549.1.1.4', 'weak'],
    [
      'p256-ecdsa-sha1-is-weak',
      { algorithm: 'ECDSA', curve: 'P-256' },
      '1.2.840.10045.4.1',
      'weak',
    ],
    [
      'p256-signed-by-dsa-is-weak',
      { algorithm: 'ECDSA', curve: 'P-256' },
      '2.16.840.1.101.3.4.3.2',
      'weak',
    ],
    [
      'ml-dsa-44',
      { algorithm: 'ML-DSA', parameterSet: 'ML-DSA-44' },
      '2.16.840.1.101.3.4.3.17',
      'quantum-safe',
    ],
    [
      'ml-dsa-87',
      { algorithm: 'ML-DSA', parameterSet: 'ML-DSA-87' },
      '2.16.840.1.101.3.4.3.19',
      'quantum-safe',
    ],
    [
      'ml-dsa-key-certified-with-ecdsa',
      { algorithm: 'ML-DSA', parameterSet: 'ML-DSA-65' },
      '1.2.840.10045.4.3.3',
      'disallowed-2035',
    ],
    [
      'slh-dsa',
      { algorithm: 'SLH-DSA', parameterSet: 'SLH-DSA-SHA2-128s' },
      '2.16.840.1.101.3.4.3.20',
      'quantum-safe',
    ],
    [
      'composite-iana-arc',
      { algorithm: 'composite', parameterSet: 'MLDSA44-ECDSA-P256-SHA256' },
      '1.3.6.1.5.5.7.6.40',
      'hybrid',
    ],
    ['composite-draft-arc', { algorithm: 'composite' }, '2.16.840.1.114027.80.8.1.4', 'hybrid'],
    [
      'p224-is-deprecated-2030',
      { algorithm: 'ECDSA', curve: 'P-224' },
      '1.2.840.10045.4.3.2',
      'deprecated-2030',
    ],
    [
      'unknown-signature-says-nothing',
      { algorithm: 'RSA', keySize: 3072 },
      '1.2.3.4',
      'disallowed-2035',
    ],
  ];
  it.each(table)('%s', (_scenario, key, signatureOid, expected) => {
    expect(classifyCertificate(key, signatureAlgorithmOf(signatureOid))).toBe(expected);
  });
});

describe('classifyKey', () => {
  it('counts an encrypted key of unknown algorithm as RSA of unknown size', () => {
    expect(classifyKey({ algorithm: 'unknown' })).toBe('deprecated-2030');
  });
  it('classifies ML-KEM by its parameter set', () => {
    expect(classifyKey({ algorithm: 'ML-KEM', parameterSet: 'ML-KEM-768' })).toBe('quantum-safe');
  });
  it('orders classifications from weak to quantum-safe', () => {
    expect(leastReady('hybrid', 'weak')).toBe('weak');
    expect(leastReady('quantum-safe', 'disallowed-2035')).toBe('disallowed-2035');
  });
});
