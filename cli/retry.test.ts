import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { backoffDelay, fetchWithRetry, retryAfterMs } from './retry';

describe('retries with backoff and jitter', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(retryAfterMs('Thu, 26 Nov 2026 12:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });

  it('grows exponentially under a cap, jittered, with Retry-After as a floor', () => {
    const options = { baseMs: 100, maxMs: 1000 };
    expect(backoffDelay(0, { ...options, random: () => 0.999 })).toBe(99);
    expect(backoffDelay(3, { ...options, random: () => 0.999 })).toBe(799);
    expect(backoffDelay(10, { ...options, random: () => 0.999 })).toBe(999);
    expect(backoffDelay(2, { ...options, random: () => 0.5 })).toBe(200);
    expect(backoffDelay(0, { ...options, random: () => 0 }, 700)).toBe(700);
    expect(backoffDelay(0, { ...options, random: () => 0 }, 60_000)).toBe(1000);
  });

  it('retries 503 and 429 honouring Retry-After, then returns the answer', async () => {
    let calls = 0;
    const server = createServer((_, res) => {
      calls++;
      if (calls === 1) res.writeHead(503, { 'retry-after': '2' }).end();
      else if (calls === 2) res.writeHead(429).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const waits: number[] = [];
    try {
      const response = await fetchWithRetry(
        `http://127.0.0.1:${port}/`,
        {},
        {
          attempts: 5,
          baseMs: 100,
          maxMs: 10_000,
          random: () => 0.5,
          sleep: async (ms) => void waits.push(ms),
        },
      );
      expect(response.status).toBe(200);
      expect(calls).toBe(3);
      expect(waits).toEqual([2000, 100]);
      // A 4xx other than 429 is an answer, not retried; the last attempt's answer is returned.
      calls = 10;
      const gaveUp = await fetchWithRetry(
        `http://127.0.0.1:${port}/`,
        {},
        { attempts: 1, baseMs: 1, maxMs: 1, sleep: async () => {} },
      );
      expect(gaveUp.status).toBe(200);
    } finally {
      server.close();
    }
  });

  it('retries network errors and throws the last one', async () => {
    const waits: number[] = [];
    await expect(
      fetchWithRetry(
        'http://127.0.0.1:9/',
        {},
        {
          attempts: 3,
          baseMs: 10,
          maxMs: 100,
          random: () => 1,
          sleep: async (ms) => void waits.push(ms),
        },
      ),
    ).rejects.toThrow();
    expect(waits).toEqual([10, 20]);
  });
});
