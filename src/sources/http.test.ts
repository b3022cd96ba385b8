import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  nextLink,
  PROVIDER_HTTP_LIMITS,
  providerRequest,
  retryAfterSeconds,
  sameOrigin,
} from './http';
import { ProviderError } from './types';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ blob: 'x'.repeat(5000) }));
      return;
    }
    if (req.url === '/html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>sign in</html>');
      return;
    }
    if (req.url === '/slow-429') {
      res.writeHead(429, { 'retry-after': '3600' });
      res.end();
      return;
    }
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"message":"Not Found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const OPTIONS = { ...PROVIDER_HTTP_LIMITS, timeoutMs: 5000 };

async function failureOf(path: string, options = OPTIONS) {
  const error = await providerRequest({ url: `${base}${path}` }, options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('providerRequest', () => {
  test('a provider that never answers is unreachable after the timeout', async () => {
    const error = await failureOf('/hang', { ...OPTIONS, timeoutMs: 200 });
    expect(error.failure).toBe('unreachable');
    expect(error.message).toContain('200 ms');
  });

  test('answers over the size cap, non-JSON bodies and long 429s are upstream errors', async () => {
    const big = await failureOf('/big', { ...OPTIONS, maxResponseBytes: 1000 });
    expect(big.failure).toBe('upstream');
    expect((await failureOf('/html')).failure).toBe('upstream');
    const limited = await failureOf('/slow-429');
    expect([limited.failure, limited.upstreamStatus]).toEqual(['upstream', 429]);
    expect(limited.message).toContain('3600');
  });

  test('redirects are not followed; 404 is not_found', async () => {
    expect((await failureOf('/redirect')).failure).toBe('upstream');
    const missing = await failureOf('/nothing');
    expect([missing.failure, missing.upstreamStatus]).toEqual(['not_found', 404]);
    expect(missing.message).toContain('Not Found');
  });
});

describe('paging helpers', () => {
  test('nextLink reads rel="next" among several relations', () => {
    expect(
      nextLink(
        '<https://h/x?page=1>; rel="prev", <https://h/x?page=3>; rel="next", <https://h/x?page=9>; rel="last"',
      ),
    ).toBe('https://h/x?page=3');
    expect(nextLink('<https://h/x?page=9>; rel="last"')).toBeNull();
    expect(nextLink(null)).toBeNull();
  });

  test('sameOrigin refuses next links to another host', () => {
    expect(sameOrigin('https://api.h/v4', '/v4/p?page=2')).toBe('https://api.h/v4/p?page=2');
    expect(() => sameOrigin('https://api.h', 'https://evil.example/steal')).toThrow(ProviderError);
  });

  test('retryAfterSeconds reads seconds and HTTP dates', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThan(5);
    expect(retryAfterSeconds('soon')).toBeNull();
    expect(retryAfterSeconds(null)).toBeNull();
  });
});
