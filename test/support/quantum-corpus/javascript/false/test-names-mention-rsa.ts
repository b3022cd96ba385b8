import { describe, expect, it } from 'vitest';
import { parseAlgorithmHeader } from '../src/headers';

describe('RSA and ECDSA key rotation', () => {
  it('reads RS256 from a JOSE header', () => {
    expect(parseAlgorithmHeader('{"alg":"RS256"}')).toBe('RS256');
  });

  it('rejects ES256 without a kid', () => {
    expect(() => parseAlgorithmHeader('{"alg":"ES256"}')).toThrow('kid');
  });
});
