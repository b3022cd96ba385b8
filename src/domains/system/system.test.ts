import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { listMigrations } from '../../db/migrate';
import { API_ONLY, checkReadiness } from './readiness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('public endpoints', () => {
  test('GET /api/v1/health is 200 while the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('ok');
  });

  test('GET /api/v1/version reports the build from package.json and the repository', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/version' });
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'buildId',
      'commitDate',
      'environment',
      'gitSha',
      'product',
      'version',
    ]);
    const pkg = JSON.parse((await import('node:fs')).readFileSync('package.json', 'utf8'));
    expect(body.version).toBe(pkg.version);
    expect(body.environment).toBe('test');
    let head: string | null = null;
    try {
      head = execFileSync('git', ['rev-parse', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    } catch {
      head = null;
    }
    if (head) expect(body.gitSha).toBe(head);
  });

  test('GET /api/v1/cli-version gives current and minimum supported versions', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/cli-version' });
    expect(res.json()).toEqual({
      current: expect.stringMatching(/^\d+\.\d+\.\d+/),
      minimumSupported: expect.any(String),
    });
  });

  test('GET /api/v1/openapi.json is OpenAPI 3.1 with request, response and error schemas for every route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/api/v1/health',
      '/api/v1/version',
      '/api/v1/cli-version',
      '/api/v1/auth/demo',
      '/api/v1/api-tokens',
      '/api/v1/api-tokens/{apiTokenId}',
      '/api/v1/audit-log',
      '/api/v1/audit-log/export',
      '/api/v1/feature-flags',
    ]) {
      expect(paths).toContain(path);
    }
    expect(paths.some((path) => path.startsWith('/docs'))).toBe(false);
    for (const [path, operations] of Object.entries(
      doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>,
    )) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses);
        expect(
          statuses.some((s) => s.startsWith('2')),
          `${method} ${path} success`,
        ).toBe(true);
        expect(statuses, `${method} ${path} errors`).toContain('500');
      }
    }
    expect(doc.paths['/api/v1/api-tokens'].post.requestBody).toBeDefined();
    expect(doc.components.schemas.Problem).toBeDefined();
  });

  test('the reference page is served at /docs without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
  });
});

describe('health when the database is gone', () => {
  test('is a 503 problem', async () => {
    const { openTestDatabase } = await import('../../../test/support/test-app');
    const database = await openTestDatabase();
    const broken = await createTestApp({}, { database });
    await database.pool.end().catch(() => {});
    const res = await broken.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    await broken.app.close();
    await database.close().catch(() => {});
  });
});

describe('readiness (GET /api/v1/ready)', () => {
  test('an app built alone is ready: database and migrations ok, no workers, not stopping', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', workers: 'none', stopping: false },
    });
  });

  test('503 problems while workers start and while stopping; ready once workers run', async () => {
    let workers: 'none' | 'starting' | 'started' = 'starting';
    let stopping = false;
    const state = { workers: () => workers, stopping: () => stopping };
    const service = await createTestApp({}, { database: t.database, state });
    const ready = () => service.app.inject({ method: 'GET', url: '/api/v1/ready' });
    try {
      const starting = await ready();
      expect(starting.statusCode).toBe(503);
      expect(starting.headers['content-type']).toMatch(/problem\+json/);
      expect(starting.json().detail).toContain('job workers have not started');

      workers = 'started';
      const running = await ready();
      expect(running.statusCode).toBe(200);
      expect(running.json().checks.workers).toBe('started');

      stopping = true;
      const stopped = await ready();
      expect(stopped.statusCode).toBe(503);
      expect(stopped.json().detail).toContain('stopping');
      // Liveness is another question: the process still answers while it drains.
      expect((await service.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(
        200,
      );
    } finally {
      await service.app.close();
    }
  });

  test('a migration this build ships but the database lacks makes it not ready', async () => {
    const shipped = listMigrations();
    const readiness = await checkReadiness(t.database, API_ONLY, [...shipped, '9999_future.sql']);
    expect(readiness).toMatchObject({
      ready: false,
      reasons: ['1 migrations are not applied'],
      checks: { database: 'ok', migrations: 'pending' },
    });
    expect((await checkReadiness(t.database, API_ONLY, shipped)).ready).toBe(true);
  });
});

describe('front pages', () => {
  test('/ belongs to the web app: unbuilt, a plain 503 naming the build and the API pages', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain('npm run build');
    const paths = ['/docs', '/api/v1/openapi.json', '/api/v1', '/status'];
    for (const path of paths) {
      expect(res.body).toContain(path);
      const target = await t.app.inject({ method: 'GET', url: path });
      expect([200, 302]).toContain(target.statusCode);
    }
  });

  test('the status page is HTML for people', async () => {
    const status = await t.app.inject({ method: 'GET', url: '/status' });
    expect(status.statusCode).toBe(200);
    expect(status.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  test('/api/v1 is a JSON index of the top-level resources, the document, health and readiness', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // With the trailing slash a person types: the same index, not a 404.
    const slash = await t.app.inject({ method: 'GET', url: '/api/v1/' });
    expect(slash.statusCode).toBe(200);
    expect(slash.json()).toEqual(body);
    expect(body).toMatchObject({
      product: expect.any(String),
      version: expect.any(String),
      links: {
        openapi: '/api/v1/openapi.json',
        docs: '/docs',
        health: '/api/v1/health',
        ready: '/api/v1/ready',
        version: '/api/v1/version',
      },
    });
    const names = body.resources.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['repositories', 'scans', 'api-tokens']));
    expect(names).not.toContain('health');
    // Every listed resource is a route that answers (401 without a token, not 404).
    for (const { href } of body.resources as { href: string }[]) {
      const answer = await t.app.inject({ method: 'GET', url: href });
      expect(answer.statusCode, href).not.toBe(404);
    }
  });

  test('both are public: no token needed; /api/v1 under the per-IP limit, the page not', async () => {
    const limited = await createTestApp(
      { rateLimits: { tenantPerMinute: 1000, tokenPerMinute: 1000, ipPerMinute: 2 } },
      { database: t.database },
    );
    try {
      const statuses: number[] = [];
      // `/` is the web app's page (unbuilt here, a 503): static, never counted (decision 0011).
      for (const url of ['/', '/api/v1', '/', '/api/v1', '/', '/api/v1']) {
        statuses.push((await limited.app.inject({ method: 'GET', url })).statusCode);
      }
      expect(statuses).toEqual([503, 200, 503, 200, 503, 429]);
    } finally {
      await limited.app.close();
    }
  });
});
