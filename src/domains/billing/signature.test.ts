import { describe, expect, it } from 'vitest';
import {
  MAX_SIGNATURES,
  readSignatureHeaders,
  SIGNATURE_HEADER,
  type SignatureHeaders,
  signDelivery,
  TIMESTAMP_HEADER,
  TOLERANCE_SECONDS,
  verifyDelivery,
} from './signature';

/** The delivery signature alone (docs/billing.md#signatures); the route's cases are in billing.test.ts. */
const SECRET = 'whsec_first_secret_0001';
const NEXT = 'whsec_second_secret_0002';
const body = Buffer.from('{"id":"evt_1","type":"invoice.paid"}');
const now = Date.UTC(2026, 11, 7, 12, 0, 0);
const ts = Math.floor(now / 1000);

function headersFor(secrets: string[], timestamp = ts, raw = body) {
  const signature = secrets
    .map((secret) => `v1=${signDelivery(secret, timestamp, raw).toString('hex')}`)
    .join(', ');
  return { [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signature };
}

const read = (headers: Record<string, string>) => readSignatureHeaders(headers) as SignatureHeaders;

describe('billing provider signatures', () => {
  it('accepts a good signature and refuses one made with another secret', () => {
    expect(verifyDelivery(read(headersFor([SECRET])), body, [SECRET], now)).toEqual({ ok: true });
    const wrong = verifyDelivery(read(headersFor(['whsec_someone_else_000'])), body, [SECRET], now);
    expect(wrong).toMatchObject({ ok: false, reason: 'mismatch' });
  });

  it('refuses a body changed by one byte', () => {
    const changed = Buffer.from(body);
    changed[5] = (changed[5] ?? 0) ^ 1;
    expect(verifyDelivery(read(headersFor([SECRET])), changed, [SECRET], now)).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('refuses signing times more than five minutes off, either way', () => {
    const at = (offset: number) =>
      verifyDelivery(read(headersFor([SECRET], ts + offset)), body, [SECRET], now);
    expect(at(-TOLERANCE_SECONDS)).toEqual({ ok: true });
    expect(at(TOLERANCE_SECONDS)).toEqual({ ok: true });
    expect(at(-TOLERANCE_SECONDS - 1)).toMatchObject({ ok: false, reason: 'stale' });
    expect(at(TOLERANCE_SECONDS + 1)).toMatchObject({ ok: false, reason: 'future' });
  });

  it('accepts any of several signatures against any of several secrets (rotation)', () => {
    // The provider rotates: it signs with old and new; the service knows only the new one.
    expect(verifyDelivery(read(headersFor([SECRET, NEXT])), body, [NEXT], now).ok).toBe(true);
    // The operator rotates: the service holds both; the provider still signs with the old one.
    expect(verifyDelivery(read(headersFor([SECRET])), body, [NEXT, SECRET], now).ok).toBe(true);
    expect(verifyDelivery(read(headersFor([SECRET])), body, [NEXT], now).ok).toBe(false);
  });

  it('says what is wrong with missing or malformed headers', () => {
    const good = headersFor([SECRET]);
    expect(readSignatureHeaders({ [SIGNATURE_HEADER]: good[SIGNATURE_HEADER] ?? '' })).toMatch(
      /lacks its x-billing-provider-timestamp/,
    );
    expect(readSignatureHeaders({ [TIMESTAMP_HEADER]: String(ts) })).toMatch(
      /lacks its x-billing-provider-signature/,
    );
    expect(readSignatureHeaders({ ...good, [TIMESTAMP_HEADER]: '2026-12-07T12:00:00Z' })).toMatch(
      /Unix seconds/,
    );
    for (const bad of ['sha256=abc', 'v1=xyz', 'v1=', '']) {
      expect(readSignatureHeaders({ ...good, [SIGNATURE_HEADER]: bad })).toMatch(/v1=/);
    }
    const many = Array.from({ length: MAX_SIGNATURES + 1 }, () => good[SIGNATURE_HEADER]).join(',');
    expect(readSignatureHeaders({ ...good, [SIGNATURE_HEADER]: many })).toMatch(/between 1 and/);
    // A scheme the service does not know beside a v1 is skipped.
    expect(
      readSignatureHeaders({ ...good, [SIGNATURE_HEADER]: `v2=zz, ${good[SIGNATURE_HEADER]}` }),
    ).toMatchObject({ timestamp: ts });
  });

  it('checks the largest accepted body in linear time (figure in docs/billing.md)', () => {
    const large = Buffer.alloc(256 * 1024, 0x61);
    const signed = read(headersFor([SECRET, NEXT], ts, large));
    const started = performance.now();
    for (let i = 0; i < 20; i++) verifyDelivery(signed, large, [SECRET, NEXT, 'a', 'b'], now);
    const perCheck = (performance.now() - started) / 20;
    // Four HMAC passes over 256 KiB: well under a few milliseconds on any test machine.
    expect(perCheck).toBeLessThan(50);
  });
});
