import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRateLimitStore, isRateLimitExempt } from './rate-limit';

describe('rate-limit store (memory)', () => {
  test('fixed window from the first request; the tightest bucket decides', async () => {
    const store = createRateLimitStore(null);
    const key = randomBytes(4).toString('hex');
    const buckets = [
      { key: `token:${key}`, limit: 3 },
      { key: `tenant:${key}`, limit: 10 },
    ];
    const first = await store.check(buckets);
    expect(first).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    expect(first.resetSeconds).toBe(60);
    await store.check(buckets);
    await store.check(buckets);
    const fourth = await store.check(buckets);
    expect(fourth).toMatchObject({ allowed: false, limit: 3, remaining: 0 });
  });

  test('exempts exactly the listed paths', () => {
    expect(isRateLimitExempt('/api/v1/health')).toBe(true);
    expect(isRateLimitExempt('/api/v1/version')).toBe(true);
    expect(isRateLimitExempt('/api/v1/webhooks/scm-a')).toBe(true);
    expect(isRateLimitExempt('/api/v1/status/public')).toBe(true);
    expect(isRateLimitExempt('/api/v1/healthz')).toBe(false);
    expect(isRateLimitExempt('/api/v1/api-tokens')).toBe(false);
    expect(isRateLimitExempt('/status/components')).toBe(false);
  });
});

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
let redisUp = false;
let clients: Redis[] = [];

beforeAll(async () => {
  const probe = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  redisUp = await probe
    .connect()
    .then(() => probe.ping())
    .then(() => true)
    .catch(() => false);
  probe.disconnect();
});
afterAll(() => {
  for (const client of clients) client.disconnect();
});

describe('rate-limit store (Redis)', () => {
  test('two processes sharing Redis share one counter', async (context) => {
    if (!redisUp) context.skip(`no Redis at ${redisUrl}`);
    clients = [new Redis(redisUrl), new Redis(redisUrl)];
    const [a, b] = clients.map((client) => createRateLimitStore(client));
    const bucket = [{ key: `token:${randomBytes(6).toString('hex')}`, limit: 2 }];
    expect((await a!.check(bucket)).allowed).toBe(true);
    expect((await b!.check(bucket)).allowed).toBe(true);
    const third = await a!.check(bucket);
    expect(third.allowed).toBe(false);
    expect(third.resetSeconds).toBeGreaterThan(0);
  });
});
