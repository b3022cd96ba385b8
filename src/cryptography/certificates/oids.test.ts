import { describe, expect, it } from 'vitest';
import { keyAlgorithmOf } from './oids';

describe('keyAlgorithmOf', () => {
  it.each([
    ['2.16.840.1.101.3.4.4.1', 'ML-KEM', 'ML-KEM-512'],
    ['2.16.840.1.101.3.4.4.2', 'ML-KEM', 'ML-KEM-768'],
    ['2.16.840.1.101.3.4.4.3', 'ML-KEM', 'ML-KEM-1024'],
    ['2.16.840.1.101.3.4.3.18', 'ML-DSA', 'ML-DSA-65'],
  ])('names %s as %s %s', (oid, algorithm, parameterSet) => {
    expect(keyAlgorithmOf(oid)).toMatchObject({ algorithm, parameterSet });
  });
});
