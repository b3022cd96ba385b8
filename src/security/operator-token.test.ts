import { describe, expect, it } from 'vitest';
import { operatorTokenCheck } from './operator-token';

describe('operator token check', () => {
  const check = operatorTokenCheck('operator-secret-0123456789');

  it('accepts the token under the Bearer scheme, in any case of the scheme', () => {
    expect(check('Bearer operator-secret-0123456789')).toBe(true);
    expect(check('bearer operator-secret-0123456789')).toBe(true);
  });

  it('refuses anything else: no header, another scheme, a prefix, a longer or other token', () => {
    for (const header of [
      undefined,
      '',
      'operator-secret-0123456789',
      'Basic operator-secret-0123456789',
      'Bearer operator-secret-012345678',
      'Bearer operator-secret-01234567890',
      'Bearer OPERATOR-SECRET-0123456789',
      'Bearer operator-secret-0123456789 extra',
    ]) {
      expect(check(header), String(header)).toBe(false);
    }
  });
});
