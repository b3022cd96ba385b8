import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The billing provider's delivery signature (docs/billing.md#signatures). Each delivery carries
 *
 *   X-Billing-Provider-Timestamp: <unix seconds when the provider signed it>
 *   X-Billing-Provider-Signature: v1=<hex HMAC-SHA256>[, v1=<hex>...]
 *
 * where each `v1` is HMAC-SHA256, keyed with one of the provider's secrets, of the bytes
 * `<timestamp>.` followed by the raw body exactly as received. Several signatures are sent while
 * the provider rotates its secret; several secrets may be configured while the operator rotates
 * ours. A delivery is genuine when any signature matches any secret.
 */
export const TIMESTAMP_HEADER = 'x-billing-provider-timestamp';
export const SIGNATURE_HEADER = 'x-billing-provider-signature';
/** How far the signing time may be from the service's clock, either way. */
export const TOLERANCE_SECONDS = 300;
/** More signatures than this is not a rotation: the header is refused as malformed. */
export const MAX_SIGNATURES = 8;

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface SignatureHeaders {
  timestamp: number;
  /** The 32-byte digests the header lists. */
  digests: Buffer[];
}

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'stale' | 'future' | 'mismatch'; detail: string };

function single(headers: HeaderBag, name: string): string | null {
  const value = headers[name];
  if (Array.isArray(value)) return value.length === 1 ? (value[0] ?? null) : null;
  return typeof value === 'string' ? value : null;
}

const TIMESTAMP = /^\d{1,12}$/;
const V1 = /^v1=([0-9a-fA-F]{64})$/;

/**
 * Reads both headers; a string saying what is wrong when either is missing or malformed. Cheap
 * (headers only), so it runs before a byte of the body is read.
 */
export function readSignatureHeaders(headers: HeaderBag): SignatureHeaders | string {
  const timestamp = single(headers, TIMESTAMP_HEADER);
  const signature = single(headers, SIGNATURE_HEADER);
  if (timestamp === null) return `The delivery lacks its ${TIMESTAMP_HEADER} header.`;
  if (signature === null) return `The delivery lacks its ${SIGNATURE_HEADER} header.`;
  if (!TIMESTAMP.test(timestamp.trim())) {
    return `${TIMESTAMP_HEADER} must be the signing time in Unix seconds.`;
  }
  const parts = signature.split(',').map((part) => part.trim());
  const digests: Buffer[] = [];
  for (const part of parts) {
    const hex = V1.exec(part)?.[1];
    // Unknown schemes (a future v2) are skipped, not refused, as long as one v1 is present.
    if (hex) digests.push(Buffer.from(hex, 'hex'));
  }
  if (digests.length === 0 || parts.length > MAX_SIGNATURES) {
    return `${SIGNATURE_HEADER} must list between 1 and ${MAX_SIGNATURES} v1=<hex HMAC-SHA256> values.`;
  }
  return { timestamp: Number(timestamp.trim()), digests };
}

/** HMAC-SHA256 of `<timestamp>.<raw body>`: one pass over the body per secret. */
export function signDelivery(secret: string, timestamp: number, raw: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(raw).digest();
}

/**
 * Checks the signing time against the clock, then every (secret, signature) pair in constant
 * time each: every pair is compared even after a match, so the time taken says nothing about
 * which secret or signature matched.
 */
export function verifyDelivery(
  signed: SignatureHeaders,
  raw: Buffer,
  secrets: readonly string[],
  nowMs: number,
): SignatureCheck {
  const age = Math.floor(nowMs / 1000) - signed.timestamp;
  if (age > TOLERANCE_SECONDS) {
    return {
      ok: false,
      reason: 'stale',
      detail: `The delivery was signed ${age} seconds ago; at most ${TOLERANCE_SECONDS} are accepted.`,
    };
  }
  if (-age > TOLERANCE_SECONDS) {
    return {
      ok: false,
      reason: 'future',
      detail: `The delivery is signed ${-age} seconds in the future; at most ${TOLERANCE_SECONDS} are accepted.`,
    };
  }
  let matched = false;
  for (const secret of secrets) {
    const expected = signDelivery(secret, signed.timestamp, raw);
    for (const digest of signed.digests) {
      // Both are 32 bytes (the header pattern fixes the length), as timingSafeEqual requires.
      if (timingSafeEqual(expected, digest)) matched = true;
    }
  }
  return matched
    ? { ok: true }
    : {
        ok: false,
        reason: 'mismatch',
        detail: 'No signature of the delivery matches a configured billing provider secret.',
      };
}
