import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('rate limits', () => {
  test('the 601st request in a minute with one token is 429 with headers and Retry-After', async () => {
    const tenant = await t.createTenant('enterprise');
    let last = await t.as(tenant.token, { method: 'GET', url: '/api/v1/feature-flags' });
    expect(last.headers['ratelimit-limit']).toBe('600');
    expect(last.headers['ratelimit-remaining']).toBe('599');
    for (let i = 2; i <= 600; i++) {
      last = await t.as(tenant.token, { method: 'GET', url: '/api/v1/feature-flags' });
    }
    expect(last.statusCode).toBe(200);
    expect(last.headers['ratelimit-remaining']).toBe('0');
    const limited = await t.as(tenant.token, { method: 'GET', url: '/api/v1/feature-flags' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toMatch(/problem\+json/);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-limit']).toBe('600');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['ratelimit-reset'])).toBe(retryAfter);
    expect(limited.json().detail).toContain(`${retryAfter} seconds`);
    // Another token of the same tenant still has its own bucket (the tenant bucket is 2000).
    const created = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'second', roleScopeJson: null, expiresAtUtc: null },
    });
    expect(created.statusCode).toBe(429);
  });

  test('the tightest bucket wins: a plan ceiling below the default applies', async () => {
    const tenant = await t.createTenant('free');
    const res = await t.as(tenant.token, { method: 'GET', url: '/api/v1/feature-flags' });
    expect(res.headers['ratelimit-limit']).toBe('300');
  });

  test('rate-limit headers are exposed through CORS', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/cli-version',
      headers: { origin: 'https://dashboard.example' },
    });
    const exposed = String(res.headers['access-control-expose-headers']);
    for (const header of [
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ]) {
      expect(exposed).toContain(header);
    }
  });

  test('exempt paths carry no rate-limit headers and are never limited', async () => {
    for (let i = 0; i < 70; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/health',
        remoteAddress: '10.9.9.9',
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
    const version = await t.app.inject({
      method: 'GET',
      url: '/api/v1/version',
      remoteAddress: '10.9.9.9',
    });
    expect(version.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe('per-IP bucket for unauthenticated requests', () => {
  test('the 61st unauthenticated request from one address is 429', async () => {
    let last = await t.app.inject({
      method: 'GET',
      url: '/api/v1/cli-version',
      remoteAddress: '10.1.1.1',
    });
    expect(last.headers['ratelimit-limit']).toBe('60');
    for (let i = 2; i <= 60; i++) {
      last = await t.app.inject({
        method: 'GET',
        url: i % 2 ? '/api/v1/cli-version' : '/api/v1/api-tokens',
        remoteAddress: '10.1.1.1',
      });
    }
    expect(last.statusCode).toBe(401);
    const limited = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/demo',
      remoteAddress: '10.1.1.1',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/v1/cli-version',
      remoteAddress: '10.1.1.2',
    });
    expect(other.statusCode).toBe(200);
  });
});
