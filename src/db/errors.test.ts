import { describe, expect, it } from 'vitest';
import { isConnectionLost, isUniqueViolation } from './errors';

const withState = (code: string) => Object.assign(new Error('x'), { code });

describe('database error classes', () => {
  it('a lost connection: class 08, shutdowns, a socket closed mid-query', () => {
    expect(isConnectionLost(withState('08006'))).toBe(true);
    expect(isConnectionLost(withState('57P01'))).toBe(true);
    expect(isConnectionLost(withState('57P03'))).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('not a lost connection: a constraint, a syntax error, a cancel, anything else', () => {
    expect(isConnectionLost(withState('23505'))).toBe(false);
    expect(isConnectionLost(withState('42601'))).toBe(false);
    expect(isConnectionLost(withState('57014'))).toBe(false);
    expect(isConnectionLost(new Error('boom'))).toBe(false);
    expect(isConnectionLost('08006')).toBe(false);
    expect(isUniqueViolation(withState('23505'))).toBe(true);
  });
});
