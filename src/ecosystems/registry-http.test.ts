import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  cleanUrl,
  detailVersions,
  maintainerChanges,
  successorFromMessage,
} from './registry-common';
import { createMemoryCache, createRegistryHttp, isoTime, parseRetryAfter } from './registry-http';
import { RegistryError, RetryableRegistryError } from './registry-types';

/**
 * The shared registry HTTP layer against a scripted local server: conditional requests and the
 * cache, 404/410 → null, 429/5xx → RetryableRegistryError with Retry-After, timeouts and dead
 * servers → retryable, the response size cap.
 */

type Handler = (request: IncomingMessage) => {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  chunks?: number;
  hang?: boolean;
};

let server: Server;
let base: string;
let handler: Handler;
/** The limits every client here starts from (the service takes them from config.registries). */
const LIMITS = { timeoutMs: 5000, maxResponseBytes: 1024 * 1024 };

const seen: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request);
    const answer = handler(request);
    if (answer.hang) return; // never answers: the client's timeout must fire
    response.writeHead(answer.status, answer.headers);
    if (answer.chunks) {
      // Streamed without Content-Length, so only the running count can stop it.
      for (let i = 0; i < answer.chunks; i++) response.write('x'.repeat(1024));
      response.end();
      return;
    }
    response.end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
});

describe('registry HTTP layer', () => {
  it('returns body and validators, and null for 404 and 410', async () => {
    const http = createRegistryHttp(LIMITS);
    handler = (r) =>
      r.url === '/gone'
        ? { status: 410 }
        : r.url === '/missing'
          ? { status: 404, body: 'nope' }
          : {
              status: 200,
              headers: { etag: '"v1"', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' },
              body: '{"a":1}',
            };
    const ok = await http.get({ url: `${base}/doc` });
    expect(ok).toMatchObject({ status: 200, body: '{"a":1}', etag: '"v1"', fromCache: false });
    expect(ok?.lastModified).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
    expect(await http.get({ url: `${base}/missing` })).toBeNull();
    expect(await http.get({ url: `${base}/gone` })).toBeNull();
  });

  it("sends the caller's validators and reports 304 as unchanged", async () => {
    const http = createRegistryHttp({ ...LIMITS, cache: null });
    handler = (r) =>
      r.headers['if-none-match'] === '"v1"' ? { status: 304 } : { status: 200, body: 'x' };
    const answer = await http.get({
      url: `${base}/doc`,
      etag: '"v1"',
      lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT',
    });
    expect(answer).toMatchObject({ status: 304, body: '', etag: '"v1"' });
    expect(seen[0]!.headers['if-modified-since']).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
  });

  it('revalidates cached documents and serves the cached body on 304', async () => {
    const http = createRegistryHttp({ ...LIMITS, cache: createMemoryCache(10) });
    let version = 1;
    handler = (r) =>
      r.headers['if-none-match'] === `"v${version}"`
        ? { status: 304 }
        : { status: 200, headers: { etag: `"v${version}"` }, body: `body ${version}` };
    expect((await http.get({ url: `${base}/doc` }))?.body).toBe('body 1');
    const again = await http.get({ url: `${base}/doc` });
    expect(again).toMatchObject({ status: 200, body: 'body 1', fromCache: true });
    expect(seen[1]!.headers['if-none-match']).toBe('"v1"');
    version = 2;
    expect(await http.get({ url: `${base}/doc` })).toMatchObject({
      body: 'body 2',
      fromCache: false,
    });
  });

  it('answers immutable documents from the cache without asking again', async () => {
    const http = createRegistryHttp({ ...LIMITS, cache: createMemoryCache(10) });
    handler = () => ({ status: 200, body: '{"Version":"v1.0.0"}' });
    await http.get({ url: `${base}/m/@v/v1.0.0.info`, immutable: true });
    const second = await http.get({ url: `${base}/m/@v/v1.0.0.info`, immutable: true });
    expect(second).toMatchObject({ fromCache: true, body: '{"Version":"v1.0.0"}' });
    expect(seen).toHaveLength(1);
  });

  it('maps 429 and 5xx to RetryableRegistryError with Retry-After (seconds or date)', async () => {
    const http = createRegistryHttp({ ...LIMITS, now: () => Date.parse('2024-01-01T00:00:00Z') });
    handler = (r) =>
      r.url === '/slow-down'
        ? { status: 429, headers: { 'retry-after': '42' } }
        : r.url === '/date'
          ? { status: 503, headers: { 'retry-after': 'Mon, 01 Jan 2024 00:02:00 GMT' } }
          : { status: 502 };
    const cases: Array<[string, number, number]> = [
      ['/slow-down', 429, 42],
      ['/date', 503, 120],
      ['/bad-gateway', 502, 30],
    ];
    for (const [path, status, retry] of cases) {
      const error = await http.get({ url: `${base}${path}` }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RetryableRegistryError);
      expect((error as RetryableRegistryError).status).toBe(status);
      expect((error as RetryableRegistryError).retryAfterSeconds).toBe(retry);
    }
  });

  it('other statuses are a non-retryable RegistryError carrying the status', async () => {
    const http = createRegistryHttp(LIMITS);
    handler = () => ({ status: 403, body: 'forbidden' });
    const error = await http.get({ url: `${base}/private` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).not.toBeInstanceOf(RetryableRegistryError);
    expect((error as RegistryError).status).toBe(403);
  });

  it('a timeout or an unreachable server is retryable', async () => {
    const http = createRegistryHttp({ ...LIMITS, timeoutMs: 200 });
    handler = () => ({ status: 200, hang: true });
    await expect(http.get({ url: `${base}/hang` })).rejects.toBeInstanceOf(RetryableRegistryError);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(http.get({ url: `http://127.0.0.1:${port}/x` })).rejects.toBeInstanceOf(
      RetryableRegistryError,
    );
  });

  it('refuses responses over the size cap, declared or streamed', async () => {
    const http = createRegistryHttp({ ...LIMITS, maxResponseBytes: 10 * 1024 });
    handler = (r) =>
      r.url === '/declared'
        ? { status: 200, body: 'y'.repeat(20 * 1024) }
        : { status: 200, chunks: 64 };
    for (const path of ['/declared', '/streamed']) {
      const error = await http.get({ url: `${base}${path}` }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RegistryError);
      expect((error as Error).message).toMatch(/exceeds/);
    }
  });
});

describe('registry helpers', () => {
  it('parses Retry-After leniently', () => {
    const now = Date.parse('2024-01-01T00:00:00Z');
    expect(parseRetryAfter('5', 60, now)).toBe(5);
    expect(parseRetryAfter('0', 60, now)).toBe(1);
    expect(parseRetryAfter('999999999', 60, now)).toBe(86_400);
    expect(parseRetryAfter('Mon, 01 Jan 2024 00:00:30 GMT', 60, now)).toBe(30);
    expect(parseRetryAfter('soon', 60, now)).toBe(60);
    expect(parseRetryAfter(null, 60, now)).toBe(60);
  });

  it('keeps the LRU within its entry bound, dropping the least recently used', () => {
    const cache = createMemoryCache(2);
    const entry = (body: string) => ({ etag: null, lastModified: null, body, storedAtMs: 0 });
    cache.set('a', entry('a'));
    cache.set('b', entry('b'));
    cache.get('a');
    cache.set('c', entry('c'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.body).toBe('a');
    expect(cache.get('c')?.body).toBe('c');
  });

  it('normalises times and repository URLs', () => {
    expect(isoTime('2024-05-29T15:37:47.123456Z')).toBe('2024-05-29T15:37:47.123Z');
    expect(isoTime('2023-11-28T15:00:00+01:00')).toBe('2023-11-28T14:00:00.000Z');
    expect(isoTime('1900-01-01T00:00:00+00:00')).toBeNull();
    expect(isoTime('garbage')).toBeNull();
    expect(cleanUrl('git+https://git.example.org/a/b.git')).toBe('https://git.example.org/a/b');
    expect(cleanUrl('git@git.example.org:a/b.git')).toBe('https://git.example.org/a/b');
    expect(cleanUrl('git://git.example.org/a/b')).toBe('https://git.example.org/a/b');
    expect(cleanUrl('javascript:alert(1)')).toBeNull();
    expect(cleanUrl('owner/repo')).toBeNull();
  });

  it('finds successors named in deprecation messages, and nothing else', () => {
    expect(successorFromMessage('Use Acme.Http instead.')).toBe('Acme.Http');
    expect(successorFromMessage('This package is deprecated. Please use @scope/new-pkg')).toBe(
      '@scope/new-pkg',
    );
    expect(successorFromMessage('moved to org.example:new-lib')).toBe('org.example:new-lib');
    expect(successorFromMessage('renamed to `nanoid`')).toBe('nanoid');
    expect(successorFromMessage('use String.prototype.padStart()')).toBeNull();
    expect(successorFromMessage('please use the latest version')).toBeNull();
    expect(successorFromMessage('no longer supported')).toBeNull();
  });

  it('reports maintainer changes in publication order', () => {
    const version = (v: string, at: string, maintainers: string[]) => ({
      version: v,
      publishedAtUtc: at,
      deprecated: null,
      yanked: false,
      prerelease: false,
      licence: null,
      maintainers,
    });
    const changes = maintainerChanges([
      version('1.0.0', '2020-01-01T00:00:00Z', ['a', 'b']),
      version('1.0.1', '2021-06-01T00:00:00Z', ['a', 'b']), // a backport published after 2.0.0
      version('2.0.0', '2021-01-01T00:00:00Z', ['a', 'c']),
    ]);
    expect(changes).toEqual([
      { version: '2.0.0', previousVersion: '1.0.0', added: ['c'], removed: ['b'] },
      { version: '1.0.1', previousVersion: '2.0.0', added: ['b'], removed: ['c'] },
    ]);
  });

  it('chooses the newest versions plus those of interest for detail requests', () => {
    const all = ['1', '2', '3', '4', '5'];
    expect([...detailVersions(all, 2)].sort()).toEqual(['4', '5']);
    expect([...detailVersions(all, 2, ['1', 'unknown'])].sort()).toEqual(['1', '4', '5']);
  });
});
