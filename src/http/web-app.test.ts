import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { builtWebAppDir, WEB_CSP } from './web-app';

/** The web app served at / (src/http/web-app.ts, web/README.md), from a built-like folder. */

const INDEX =
  '<!doctype html><html lang="en"><head><title>Driftwatch</title></head><body><div id="app"></div><script type="module" src="/assets/index-AbC123.js"></script></body></html>';

let dir: string;
let t: TestApp;
let bare: TestApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'web-app-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log("app");');
  writeFileSync(join(dir, 'assets', 'index-Xy9.css'), 'body{}');
  writeFileSync(join(dir, 'secret.txt'), 'not an asset');
  t = await createTestApp({}, { webAppDir: dir });
  bare = await createTestApp({}, { database: t.database });
});

afterAll(async () => {
  // bare shares t's database: close its app only.
  await bare?.app.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('the web app at /', () => {
  it('serves index.html revalidated, with the strict CSP and nosniff', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe(WEB_CSP);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "object-src 'none'",
    ]) {
      expect(res.headers['content-security-policy']).toContain(directive);
    }
    expect(res.headers['content-security-policy']).not.toContain('unsafe');
    expect(res.body).toBe(INDEX);
  });

  it('serves the page itself without the per-IP limit; unknown API paths keep it', async () => {
    // A fresh app: its per-IP bucket (60 a minute) starts empty.
    const own = await createTestApp({}, { database: t.database, webAppDir: dir });
    try {
      const paths = ['/', '/exposures?severity=critical', '/repositories/abc'];
      for (let i = 0; i < 70; i += 1) {
        const res = await own.app.inject({ method: 'GET', url: paths[i % 3], headers: html });
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
      const statuses: number[] = [];
      for (let i = 0; i < 61; i += 1) {
        statuses.push(
          (await own.app.inject({ method: 'GET', url: '/api/v1/nothing-here' })).statusCode,
        );
      }
      expect(statuses.slice(0, 60).every((status) => status === 404)).toBe(true);
      expect(statuses[60]).toBe(429);
    } finally {
      await own.app.close();
    }
  });

  it('serves hashed assets immutable for a year, with their types', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.body).toBe('console.log("app");');
    const css = await t.app.inject({ method: 'GET', url: '/assets/index-Xy9.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('answers client-side routes with index.html for a browser, and only for GET', async () => {
    for (const url of [
      '/repositories',
      '/repositories/abc?businessCriticality=high',
      '/exposures?page=2',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['content-security-policy'], url).toBe(WEB_CSP);
    }
    const json = await t.app.inject({
      method: 'GET',
      url: '/repositories',
      headers: { accept: 'application/json' },
    });
    expect(json.statusCode).toBe(404);
    expect(json.headers['content-type']).toContain('application/problem+json');
    const post = await t.app.inject({
      method: 'POST',
      url: '/repositories',
      headers: html,
      payload: {},
    });
    expect(post.statusCode).toBe(404);
  });

  it('never answers /api, /docs or /status paths with the app', async () => {
    for (const url of [
      '/api/v1/nothing-here',
      '/api/nothing',
      '/docs/nothing-here',
      '/status/nothing-here',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('<div id="app">');
    }
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health', headers: html });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-type']).toContain('application/json');
    const status = await t.app.inject({ method: 'GET', url: '/status', headers: html });
    expect(status.statusCode).toBe(200);
    expect(status.body).not.toBe(INDEX);
    const docs = await t.app.inject({ method: 'GET', url: '/docs', headers: html });
    expect([200, 302]).toContain(docs.statusCode);
    const unauthenticated = await t.app.inject({
      method: 'GET',
      url: '/api/v1/repositories',
      headers: html,
    });
    expect(unauthenticated.statusCode).toBe(401);
    // A method the path does not allow is still a 405, not the app.
    const wrongMethod = await t.app.inject({
      method: 'POST',
      url: '/api/v1/health',
      headers: html,
    });
    expect(wrongMethod.statusCode).toBe(405);
  });

  it('refuses path traversal and files outside assets/', async () => {
    for (const url of [
      '/assets/..%2Fsecret.txt',
      '/assets/%2e%2e%2fsecret.txt',
      '/assets/../secret.txt',
      '/assets/..%2F..%2Fpackage.json',
      '/assets/missing-123.js',
      '/assets/secret.txt',
      '/assets/.hidden.js',
      '/secret.txt',
      '/index.html/../secret.txt',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('not an asset');
    }
  });

  it('without a built app, / is a plain 503 naming npm run build, and the API still works', async () => {
    const res = await bare.app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain('npm run build');
    const route = await bare.app.inject({ method: 'GET', url: '/repositories', headers: html });
    expect(route.statusCode).toBe(503);
    const asset = await bare.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(asset.statusCode).toBe(404);
    const health = await bare.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
  });

  it('finds dist/web beside the compiled service and in a checkout', () => {
    expect(builtWebAppDir('file:///srv/app/dist/src/http/web-app.js')).toBe('/srv/app/dist/web');
    expect(builtWebAppDir('file:///srv/app/src/http/web-app.ts')).toBe('/srv/app/dist/web');
  });
});
