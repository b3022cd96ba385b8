import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app';

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
