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

/** The app on a real socket (127.0.0.1, a free port), for what `inject` bypasses. */
let listeningAt: Promise<string> | null = null;
function listening(): Promise<string> {
  listeningAt ??= t.app.listen({ host: '127.0.0.1', port: 0 });
  return listeningAt;
}

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

describe('text PostgreSQL cannot store is refused at the edge', () => {
  const hostile = ['a\u0000b', '\ud800', 'x\udfffy', '\udc00\ud800'];

  test('in a JSON body field, with the field named', async () => {
    for (const name of hostile) {
      const res = await t.as(tenant.token, {
        method: 'POST',
        url: '/api/v1/api-tokens',
        payload: { name, roleScopeJson: null, expiresAtUtc: null },
      });
      expect(expectProblem(res, 400).errors).toHaveProperty('name');
    }
  });

  test('in an object key and deep inside a body', async () => {
    const key = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'ok', roleScopeJson: null, expiresAtUtc: null, 'k\u0000': 1 },
    });
    expect(expectProblem(key, 400).errors).toHaveProperty(['k\u0000']);
    // Sent as text (this test app's body limit is 2 KB).
    const deep = `${'['.repeat(900)}"\\u0000"${']'.repeat(900)}`;
    const nested = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      headers: { 'content-type': 'application/json' },
      payload: `{"name":"ok","roleScopeJson":null,"expiresAtUtc":null,"extra":${deep}}`,
    });
    const fields = Object.keys(expectProblem(nested, 400).errors as object);
    expect(fields).toEqual([`extra${'[0]'.repeat(900)}`]);
  });

  test('in a query value, percent-encoded or not', async () => {
    for (const search of ['%00', 'a%00b', encodeURIComponent('\u0000')]) {
      const res = await t.as(tenant.token, {
        method: 'GET',
        url: `/api/v1/packages?search=${search}`,
      });
      expect(res.statusCode, search).toBe(400);
      expect(expectProblem(res, 400).errors, search).toHaveProperty('search');
    }
  });

  test('in a path parameter', async () => {
    const res = await t.as(tenant.token, { method: 'GET', url: '/api/v1/vulnerabilities/a%00b' });
    expect(expectProblem(res, 400).errors).toHaveProperty('vulnerabilityId');
  });
});

describe('numeric query parameters are range-checked', () => {
  test.each([
    'skip=99999999999999999999999',
    'skip=Infinity',
    'skip=-1',
    'skip=1.5',
    'skip=NaN',
    'skip=2147483648',
    'take=1e400',
    'take=0',
    'take=-5',
    'take=2.5',
    'take=Infinity',
  ])('%s is a 400 naming the parameter', async (query) => {
    const res = await t.as(tenant.token, { method: 'GET', url: `/api/v1/audit-log?${query}` });
    const body = expectProblem(res, 400);
    expect(Object.keys(body.errors as object)).toEqual([query.split('=')[0]]);
  });

  test('the largest skip is accepted, a take above the maximum clamped and echoed', async () => {
    const res = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/audit-log?skip=2147483647&take=100000',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ take: 200, skip: 2147483647, items: [] });
  });
});

describe("the framework's own errors are problems", () => {
  test('bad percent-encoding in the path is a 400 problem', async () => {
    const res = await t.as(tenant.token, { method: 'GET', url: '/api/v1/scans/%E0%A4%A' });
    expectProblem(res, 400);
  });

  test('a path parameter over the router limit is a 414 problem', async () => {
    const res = await t.as(tenant.token, {
      method: 'GET',
      url: `/api/v1/scans/${'a'.repeat(500)}`,
    });
    expectProblem(res, 414);
  });

  test('a known path with another method is a 405 with Allow', async () => {
    const res = await t.as(tenant.token, { method: 'PATCH', url: '/api/v1/audit-log' });
    expectProblem(res, 405);
    expect(res.headers.allow).toBe('GET, HEAD');
    const param = await t.as(tenant.token, {
      method: 'PUT',
      url: '/api/v1/api-tokens/01900000-0000-7000-8000-000000000000',
    });
    expectProblem(param, 405);
    expect(param.headers.allow).toContain('DELETE');
  });

  test('an unknown path is still a 404, whatever the method', async () => {
    expectProblem(await t.app.inject({ method: 'DELETE', url: '/api/v1/nothing/here' }), 404);
  });

  test('oversized headers and URLs over a real socket are 431 problems with a correlation id', async () => {
    const { request } = await import('node:http');
    const address = await listening();
    const send = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; type: string; id: string; body: string }>((resolve, reject) => {
        const req = request(`${address}${path}`, { headers }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              type: String(res.headers['content-type']),
              id: String(res.headers['x-correlation-id']),
              body,
            }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    for (const res of [
      await send('/api/v1/health', { 'x-big': 'a'.repeat(40_000) }),
      await send(`/api/v1/health?${'q'.repeat(40_000)}`, {}),
    ]) {
      expect(res.status).toBe(431);
      expect(res.type).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.body)).toMatchObject({ status: 431, correlationId: res.id });
    }
  });
});

describe('every error class over a real socket', () => {
  test('malformed HTTP is a 400 problem with a correlation id, written by the parser handler', async () => {
    const { connect } = await import('node:net');
    const address = new URL(await listening());
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(address.port), '127.0.0.1', () => {
        socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/content-type: application\/problem\+json/i);
    const id = /x-correlation-id: (\S+)/i.exec(head)?.[1];
    expect(JSON.parse(body)).toMatchObject({ status: 400, correlationId: id });
  });

  test('an empty JSON body is a 400 problem', async () => {
    const res = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expectProblem(res, 400);
  });
});

describe('field names that are Object.prototype members', () => {
  test('are reported like any other field, never a 500', async () => {
    const query = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/audit-log?__proto__=a%00b&constructor=%00',
    });
    expect(Object.keys(expectProblem(query, 400).errors as object).sort()).toEqual([
      '__proto__',
      'constructor',
    ]);
    for (const key of ['constructor', '__proto__', 'toString']) {
      const res = await t.as(tenant.token, {
        method: 'PATCH',
        url: '/api/v1/tenants/current/scoring-weights',
        headers: { 'content-type': 'application/json' },
        payload: `{"${key}":1}`,
      });
      expect(res.statusCode, key).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, key).toBeLessThan(500);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });
});
