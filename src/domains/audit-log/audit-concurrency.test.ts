import { request as httpRequest } from 'node:http';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { conflict } from '../../core/problem';

let t: TestApp;
let tenant: TestTenant;
let viewerToken: string;

const TEST_AUDIT = { action: 'test.audited', resourceType: 'test' };

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      configure: (app) => {
        // An audited route that fails on demand: 409 (domain error) and 500 (a bug).
        app.post<{ Params: { outcome: string } }>(
          '/api/v1/test/audited/:outcome',
          { config: { audit: TEST_AUDIT } },
          async (request) => {
            if (request.params.outcome === 'conflict') throw conflict('on purpose');
            if (request.params.outcome === 'crash') throw new Error('on purpose');
            if (request.params.outcome === 'slow') await new Promise((r) => setTimeout(r, 1500));
            request.auditDetails = { note: 'details with NUL \u0000 and \ud800 are stored' };
            return { ok: true };
          },
        );
      },
    },
  );
  tenant = await t.createTenant('enterprise');
  const viewer = await t.as(tenant.token, {
    method: 'POST',
    url: '/api/v1/api-tokens',
    payload: { name: 'viewer', roleScopeJson: '{"roles":["viewer"]}', expiresAtUtc: null },
  });
  expect(viewer.statusCode).toBe(201);
  viewerToken = viewer.json().rawSecret;
}, 120_000);
afterAll(async () => t?.close());

const UNKNOWN = '01900000-0000-7000-8000-000000000000';

/** One request of each kind an audited route can end in, with the status it must end in. */
const KINDS: { status: number; token: () => string; request: InjectOptions; unique?: true }[] = [
  {
    status: 201,
    token: () => tenant.token,
    request: {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'ok', roleScopeJson: null, expiresAtUtc: null },
    },
    // A repeated identical create is answered as a replay (200): each one gets its own name.
    unique: true,
  },
  {
    status: 422,
    token: () => tenant.token,
    request: {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: '', roleScopeJson: null, expiresAtUtc: null },
    },
  },
  {
    status: 400,
    token: () => tenant.token,
    request: {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'a\u0000b', roleScopeJson: null, expiresAtUtc: null },
    },
  },
  {
    status: 400,
    token: () => tenant.token,
    request: { method: 'DELETE', url: '/api/v1/api-tokens/a%00b' },
  },
  {
    status: 404,
    token: () => tenant.token,
    request: { method: 'DELETE', url: `/api/v1/api-tokens/${UNKNOWN}` },
  },
  {
    status: 403,
    token: () => viewerToken,
    request: { method: 'DELETE', url: `/api/v1/api-tokens/${UNKNOWN}` },
  },
  {
    status: 200,
    token: () => tenant.token,
    request: { method: 'POST', url: '/api/v1/test/audited/ok' },
  },
  {
    status: 409,
    token: () => tenant.token,
    request: { method: 'POST', url: '/api/v1/test/audited/conflict' },
  },
  {
    status: 500,
    token: () => tenant.token,
    request: { method: 'POST', url: '/api/v1/test/audited/crash' },
  },
];

describe('audit entries under concurrency', () => {
  test('200 audited requests, 20 at a time, successes and failures: exactly one entry each', async () => {
    const total = 200;
    const concurrency = 20;
    const sent: { correlationId: string; status: number }[] = [];
    let next = 0;
    const worker = async () => {
      for (;;) {
        const index = next++;
        if (index >= total) return;
        const kind = KINDS[index % KINDS.length];
        if (!kind) return;
        const correlationId = `audit-load-${index}`;
        const res = await t.as(kind.token(), {
          ...kind.request,
          ...(kind.unique
            ? { payload: { name: correlationId, roleScopeJson: null, expiresAtUtc: null } }
            : {}),
          headers: { 'x-correlation-id': correlationId },
        });
        expect(res.statusCode, `${kind.request.method} ${kind.request.url} ${res.body}`).toBe(
          kind.status,
        );
        sent.push({ correlationId, status: kind.status });
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    expect(sent).toHaveLength(total);

    const rows = await t.database.system
      .selectFrom('audit_log')
      .select(['correlation_id', 'status_code'])
      .where('tenant_id', '=', tenant.tenantId)
      .where('correlation_id', 'like', 'audit-load-%')
      .execute();
    expect(rows).toHaveLength(total);
    const recorded = new Map(rows.map((row) => [row.correlation_id, row.status_code]));
    expect(recorded.size).toBe(total);
    for (const { correlationId, status } of sent) {
      expect(recorded.get(correlationId), correlationId).toBe(status);
    }
  }, 180_000);
});

describe('a caller that leaves', () => {
  test('is rolled back and recorded as aborted (499)', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const correlationId = 'audit-aborted-1';
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${address}/api/v1/test/audited/slow`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.token}`, 'x-correlation-id': correlationId },
      });
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    const deadline = Date.now() + 10_000;
    let rows: { status_code: number; outcome: string }[] = [];
    while (rows.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await t.database.system
        .selectFrom('audit_log')
        .select(['status_code', 'outcome'])
        .where('correlation_id', '=', correlationId)
        .execute();
    }
    // The handler finishing later must not add a second entry.
    await new Promise((r) => setTimeout(r, 2000));
    const final = await t.database.system
      .selectFrom('audit_log')
      .select(['status_code', 'outcome'])
      .where('correlation_id', '=', correlationId)
      .execute();
    expect(final).toEqual([{ status_code: 499, outcome: 'aborted' }]);
  }, 30_000);
});
