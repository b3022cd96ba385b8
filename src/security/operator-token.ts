import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The operator token (DRIFTWATCH_OPERATOR_TOKEN, docs/operations.md#operator-token): one secret
 * for the people running the service, never a tenant token. Only its SHA-256 is kept; a presented
 * token is hashed and compared in constant time, so neither its length nor its prefix leaks.
 */
export type OperatorCheck = (authorization: string | undefined) => boolean;

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export function operatorTokenCheck(token: string): OperatorCheck {
  const expected = digest(token);
  return (authorization) => {
    // The scheme is case-insensitive (RFC 9110); the token is not.
    const match = /^bearer +(\S+)$/i.exec(authorization ?? '');
    if (!match?.[1]) return false;
    return timingSafeEqual(digest(match[1]), expected);
  };
}
