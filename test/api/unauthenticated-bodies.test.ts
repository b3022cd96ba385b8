import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Routes that take a body without a token (push webhooks, status subscriptions) check size and
 * identity over the raw bytes before anything else, in time linear in the body, so a stream of
 * large unauthenticated bodies neither stalls nor starves other requests (docs/http-rules.md).
 * The bound below is generous (normal latency is a few milliseconds); before the fix each such
 * request held the event loop for about 4 s and /health answered 503.
 */

const BODY_BYTES = 4_900_000;
const REQUESTS = 60;
const CONCURRENCY = 4;
const HEALTH_BOUND_MS = 2_000;

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await t.close();
});

/** A JSON document of about `bytes` bytes with many small values, as a push payload has. */
function largeJson(bytes: number): string {
  const item = '{"id":12345,"name":"a-file-name.ts","added":true},';
  const items = item.repeat(Math.floor(bytes / item.length));
  return `{"commits":[${items.slice(0, -1)}]}`;
}

async function healthLatencies(until: Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  void until.finally(() => {
    done = true;
  });
  while (!done) {
    const started = performance.now();
    const res = await fetch(`${base}/api/v1/health`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return latencies;
}

const ROUTES: { path: string; headers: Record<string, string>; status: number }[] = [
  // scm-b authenticates with a token header: a wrong one is refused without reading the JSON.
  {
    path: '/api/v1/webhooks/scm-b',
    headers: { 'x-scm-b-token': 'not-a-known-token' },
    status: 401,
  },
  // scm-a signs the body: a well-formed signature that matches nothing.
  {
    path: '/api/v1/webhooks/scm-a',
    headers: { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}`, 'x-scm-a-event': 'push' },
    status: 401,
  },
  // No identity header at all.
  { path: '/api/v1/webhooks/scm-d', headers: {}, status: 401 },
  // The billing provider signs the body: its declared size is over the limit (docs/billing.md).
  {
    path: '/api/v1/webhooks/billing-provider',
    headers: {
      'x-billing-provider-timestamp': String(Math.floor(Date.now() / 1000)),
      'x-billing-provider-signature': `v1=${'0'.repeat(64)}`,
    },
    status: 400,
  },
];

describe('unauthenticated bodies', () => {
  test(`${REQUESTS} bodies of ${BODY_BYTES} bytes at concurrency ${CONCURRENCY} leave /health answering`, async () => {
    const body = largeJson(BODY_BYTES);
    let sent = 0;
    const statuses: number[] = [];
    async function sender(): Promise<void> {
      while (sent < REQUESTS) {
        const route = ROUTES[sent % ROUTES.length];
        sent++;
        if (!route) return;
        const res = await fetch(`${base}${route.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...route.headers },
          body,
        });
        await res.arrayBuffer();
        expect(res.status).toBe(route.status);
        statuses.push(res.status);
      }
    }
    const load = Promise.all(Array.from({ length: CONCURRENCY }, sender));
    const latencies = await healthLatencies(load);
    await load;
    expect(statuses).toHaveLength(REQUESTS);
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(HEALTH_BOUND_MS);
  }, 120_000);

  test('a body over the limit is 413 before its identity is checked', async () => {
    const res = await fetch(`${base}/api/v1/webhooks/scm-b`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-scm-b-token': 'not-a-known-token' },
      body: 'x'.repeat(t.config.sources.webhookBodyLimitBytes + 1),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  test('a delivery without an identity header is 401 whatever its size: its body is never read', async () => {
    const res = await fetch(`${base}/api/v1/webhooks/scm-a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(t.config.sources.webhookBodyLimitBytes + 1),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // Closed after the answer: the server never waits for (or reads) the rest of the body.
    expect(res.headers.get('connection')).toBe('close');
  });

  test('a billing delivery is refused before its body is read: no signature, or too large', async () => {
    const unsigned = await fetch(`${base}/api/v1/webhooks/billing-provider`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(1_000_000),
    });
    expect(unsigned.status).toBe(400);
    expect(unsigned.headers.get('connection')).toBe('close');
    // Without a declared length (chunked), the parser stops at the limit.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        controller.close();
      },
    });
    const chunked = await fetch(`${base}/api/v1/webhooks/billing-provider`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-billing-provider-timestamp': String(Math.floor(Date.now() / 1000)),
        'x-billing-provider-signature': `v1=${'0'.repeat(64)}`,
      },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(400);
    expect(((await chunked.json()) as { detail: string }).detail).toMatch(/exceeds/);
  });
});
