import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API token format (docs/design.md#http-rules): `dw_` + 40 random base62 characters + a 6-character base62
 * checksum of those 40, so secret scanners can recognise a Driftwatch token and typos are caught
 * without a database lookup. Stored only as SHA-256 (the secret has ~238 bits of entropy).
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
export const TOKEN_PREFIX_LENGTH = 12;
const TOKEN_PATTERN = /^dw_[0-9A-Za-z]{46}$/;

function base62(bytes: Buffer, length: number): string {
  let out = '';
  let index = 0;
  while (out.length < length) {
    if (index >= bytes.length) {
      bytes = randomBytes(length * 2);
      index = 0;
    }
    const byte = bytes[index++] as number;
    // Rejection sampling keeps the distribution uniform (248 = 4 * 62).
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

function checksum(body: string): string {
  const digest = createHash('sha256').update(body).digest();
  let value = digest.readUInt32BE(0) * 2 ** 16 + digest.readUInt16BE(4);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generateToken(): string {
  const body = base62(randomBytes(BODY_LENGTH * 2), BODY_LENGTH);
  return `dw_${body}${checksum(body)}`;
}

/** Shape and checksum only; says nothing about whether the token exists. */
export function isWellFormedToken(token: string): boolean {
  if (!TOKEN_PATTERN.test(token)) return false;
  const body = token.slice(3, 3 + BODY_LENGTH);
  const given = Buffer.from(token.slice(3 + BODY_LENGTH));
  return timingSafeEqual(given, Buffer.from(checksum(body)));
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export function tokenPrefix(token: string): string {
  return token.slice(0, TOKEN_PREFIX_LENGTH);
}

/** `Authorization: Bearer <token>` → the token, or null when missing or malformed. */
export function parseBearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer ([^\s]+)$/.exec(header.trim());
  if (!match?.[1]) return null;
  return isWellFormedToken(match[1]) ? match[1] : null;
}
