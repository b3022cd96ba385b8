import { describe, expect, it } from 'vitest';
import { type AlgorithmStrength, classifyAlgorithm, severityOf } from './classify.js';

describe('classifyAlgorithm', () => {
  const table: [AlgorithmStrength, string][] = [
    [{ algorithm: 'RSA', keySize: 1024 }, 'weak'],
    [{ algorithm: 'RSA', keySize: 2048 }, 'deprecated-2030'],
    [{ algorithm: 'RSA' }, 'deprecated-2030'],
    [{ algorithm: 'RSA', keySize: 3072 }, 'disallowed-2035'],
    [{ algorithm: 'RSA', keySize: 4096 }, 'disallowed-2035'],
    [{ algorithm: 'RSA', keySize: 4096, signatureHash: 'SHA-1' }, 'weak'],
    [{ algorithm: 'DSA', keySize: 3072 }, 'weak'],
    [{ algorithm: 'DH', keySize: 2048 }, 'deprecated-2030'],
    [{ algorithm: 'ECDSA', curve: 'P-224' }, 'deprecated-2030'],
    [{ algorithm: 'ECDSA', curve: 'P-256' }, 'disallowed-2035'],
    [{ algorithm: 'ECDSA', curve: 'prime192v1' }, 'weak'],
    [{ algorithm: 'EdDSA', curve: 'Ed25519' }, 'disallowed-2035'],
    [{ algorithm: 'X25519' }, 'disallowed-2035'],
    [{ algorithm: 'X25519MLKEM768' }, 'hybrid'],
    [{ algorithm: 'ML-KEM-768' }, 'quantum-safe'],
    [{ algorithm: 'ML-DSA-65' }, 'quantum-safe'],
  ];
  it.each(table)('%o is %s', (strength, expected) => {
    expect(classifyAlgorithm(strength)).toBe(expected);
  });

  it('ranks severities from weak down', () => {
    expect(
      (['weak', 'deprecated-2030', 'disallowed-2035', 'hybrid'] as const).map(severityOf),
    ).toEqual(['high', 'medium', 'low', 'info']);
  });
});
