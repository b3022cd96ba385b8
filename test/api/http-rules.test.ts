import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp, type TestTenant } from '../support/test-app';

let t: TestApp;
let tenant: TestTenant;

beforeAll(async () => {
  t = await createTestApp(
    { bodyLimitBytes: 2048 },
    {
      configure: (app) => {
        app.get('/api/v1/test/explode', async () => {
          throw new Error('secret internal detail: password=hunter2');
        });
      },
    },
  );
  tenant = await t.createTenant();
});
afterAll(async () => t?.close());

function expectProblem(
  res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
  status: number,
) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json() as Record<string, unknown>;
  expect(body).toMatchObject({ status, instance: expect.any(String), title: expect.any(String) });
  expect(body.correlationId).toBe(res.headers['x-correlation-id']);
  return body;
}

describe('problem details for every failure', () => {
  test('an unknown route is a 404 problem', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expectProblem(res, 404);
  });

  test('malformed JSON is a 400 problem and stores nothing', async () => {
    const before = await t.as(tenant.token, { method: 'GET', url: '/api/v1/api-tokens' });
    const res = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "x",',
    });
    expectProblem(res, 400);
    const after = await t.as(tenant.token, { method: 'GET', url: '/api/v1/api-tokens' });
    expect(after.json().items).toHaveLength(before.json().items.length);
  });

  test('a text/plain body is 415', async () => {
    const res = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      headers: { 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    expectProblem(res, 415);
  });

  test('an oversized body is 413', async () => {
    const res = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'x'.repeat(5000), roleScopeJson: null, expiresAtUtc: null },
    });
    expectProblem(res, 413);
  });

  test('an unparseable query value is a 400 with errors keyed by parameter', async () => {
    const res = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/audit-log?take=abc&skip=-1',
    });
    const body = expectProblem(res, 400);
    expect(Object.keys(body.errors as object).sort()).toEqual(['skip', 'take']);
  });

  test('a malformed UUID in a path is a 400, a well-formed unknown one a 404', async () => {
    const bad = await t.as(tenant.token, {
      method: 'DELETE',
      url: '/api/v1/api-tokens/not-a-uuid',
    });
    expect(expectProblem(bad, 400).errors).toHaveProperty('apiTokenId');
    const unknown = await t.as(tenant.token, {
      method: 'DELETE',
      url: '/api/v1/api-tokens/01900000-0000-7000-8000-000000000000',
    });
    expectProblem(unknown, 404);
  });

  test('an unhandled error is a 500 problem with a correlationId and nothing internal', async () => {
    const res = await t.as(tenant.token, { method: 'GET', url: '/api/v1/test/explode' });
    const body = expectProblem(res, 500);
    expect(body.correlationId).toEqual(expect.any(String));
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('stack');
  });

  test('every response carries X-Correlation-Id, echoing a well-formed one', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-correlation-id': 'ci-run-42' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-correlation-id']).toBe('ci-run-42');
    const generated = await t.app.inject({ method: 'GET', url: '/api/v1/version' });
    expect(generated.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('authentication', () => {
  test('a missing or malformed header is 401 before any handler runs', async () => {
    for (const authorization of [
      undefined,
      'Basic abc',
      'Bearer',
      'Bearer dw_short',
      `Token ${tenant.token}`,
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/api-tokens',
        headers: authorization ? { authorization } : {},
        payload: { name: 'x', roleScopeJson: null, expiresAtUtc: null },
      });
      expectProblem(res, 401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
  });

  test('an unknown token with a valid checksum is 401', async () => {
    const { generateToken } = await import('../../src/security/tokens');
    const res = await t.as(generateToken(), { method: 'GET', url: '/api/v1/api-tokens' });
    expectProblem(res, 401);
  });

  test('a token with a broken checksum is 401', async () => {
    const broken = `${tenant.token.slice(0, -1)}${tenant.token.endsWith('A') ? 'B' : 'A'}`;
    const res = await t.as(broken, { method: 'GET', url: '/api/v1/api-tokens' });
    expectProblem(res, 401);
  });

  test('an expired token is 401', async () => {
    const created = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: {
        name: 'short-lived',
        roleScopeJson: null,
        expiresAtUtc: new Date(Date.now() + 60_000).toISOString(),
      },
    });
    expect(created.statusCode).toBe(201);
    const { apiTokenId, rawSecret } = created.json();
    expect((await t.as(rawSecret, { method: 'GET', url: '/api/v1/api-tokens' })).statusCode).toBe(
      200,
    );
    await t.database.system
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', apiTokenId)
      .execute();
    expectProblem(await t.as(rawSecret, { method: 'GET', url: '/api/v1/api-tokens' }), 401);
  });

  test('a revoked token is 401 on the very next call', async () => {
    const created = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'to-revoke', roleScopeJson: null, expiresAtUtc: null },
    });
    const { apiTokenId, rawSecret } = created.json();
    expect(
      (await t.as(rawSecret, { method: 'GET', url: '/api/v1/feature-flags' })).statusCode,
    ).toBe(200);
    const revoked = await t.as(tenant.token, {
      method: 'DELETE',
      url: `/api/v1/api-tokens/${apiTokenId}`,
    });
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expectProblem(await t.as(rawSecret, { method: 'GET', url: '/api/v1/feature-flags' }), 401);
  });

  test('the token is never logged or echoed in problems', async () => {
    const res = await t.as(tenant.token, { method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.body).not.toContain(tenant.token);
  });
});

describe('several processes', () => {
  test('a token revoked through one process is refused by another on its next request', async () => {
    const second = await createTestApp({}, { database: t.database });
    try {
      const created = await t.as(tenant.token, {
        method: 'POST',
        url: '/api/v1/api-tokens',
        payload: { name: 'multi-process', roleScopeJson: null, expiresAtUtc: null },
      });
      const { apiTokenId, rawSecret } = created.json();
      expect(
        (await second.as(rawSecret, { method: 'GET', url: '/api/v1/feature-flags' })).statusCode,
      ).toBe(200);
      await t.as(tenant.token, { method: 'DELETE', url: `/api/v1/api-tokens/${apiTokenId}` });
      expect(
        (await second.as(rawSecret, { method: 'GET', url: '/api/v1/feature-flags' })).statusCode,
      ).toBe(401);
    } finally {
      await second.app.close();
    }
  });
});
