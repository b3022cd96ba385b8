import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { tenantDb } from '../../http/scope';

let t: TestApp;
let tenant: TestTenant;
let createdId: string;

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      configure: (app) => {
        const level = async (request: FastifyRequest) => {
          const result = await sql<{
            level: string;
          }>`SELECT current_setting('transaction_isolation') AS level`.execute(tenantDb(request));
          return { level: result.rows[0]?.level };
        };
        app.get(
          '/api/v1/test/isolation/snapshot',
          { config: { isolation: 'repeatable read' } },
          level,
        );
        app.get('/api/v1/test/isolation/default', level);
      },
    },
  );
  tenant = await t.createTenant('enterprise');
  const created = await t.as(tenant.token, {
    method: 'POST',
    url: '/api/v1/api-tokens',
    headers: { 'x-correlation-id': 'audit-create-1' },
    payload: { name: 'audited', roleScopeJson: null, expiresAtUtc: null },
  });
  createdId = created.json().apiTokenId;
  await t.as(tenant.token, { method: 'DELETE', url: `/api/v1/api-tokens/${createdId}` });
  await t.as(tenant.token, { method: 'DELETE', url: `/api/v1/api-tokens/${createdId}` });
  await t.as(tenant.token, {
    method: 'POST',
    url: '/api/v1/api-tokens',
    payload: { name: '', roleScopeJson: null, expiresAtUtc: null },
  });
});
afterAll(async () => t?.close());

describe('GET /api/v1/audit-log', () => {
  test('records every state-changing call with actor, action, resource, outcome, IP, correlation id; newest first', async () => {
    const res = await t.as(tenant.token, { method: 'GET', url: '/api/v1/audit-log' });
    expect(res.statusCode).toBe(200);
    const { items, totalEstimate, take, skip } = res.json();
    expect({ totalEstimate, take, skip }).toEqual({ totalEstimate: 4, take: 50, skip: 0 });
    expect(
      items.map((i: { action: string; outcome: string }) => `${i.action}:${i.outcome}`),
    ).toEqual([
      'api_token.create:invalid',
      'api_token.revoke:not_found',
      'api_token.revoke:success',
      'api_token.create:success',
    ]);
    const creation = items[3];
    expect(creation).toMatchObject({
      actorTokenId: tenant.tokenId,
      resourceType: 'api_token',
      resourceId: createdId,
      statusCode: 201,
      ip: '127.0.0.1',
      correlationId: 'audit-create-1',
    });
    expect(JSON.stringify(items)).not.toMatch(/dw_[0-9A-Za-z]{46}/);
    const reads = items.filter((i: { action: string }) => i.action.startsWith('GET'));
    expect(reads).toEqual([]);
  });

  test('filters by action, resourceType, actorTokenId and a time window, with paging', async () => {
    const q = async (query: string) =>
      (await t.as(tenant.token, { method: 'GET', url: `/api/v1/audit-log?${query}` })).json();
    expect((await q('action=api_token.revoke')).totalEstimate).toBe(2);
    expect((await q('resourceType=api_token&take=1&skip=1')).items).toHaveLength(1);
    expect((await q(`actorTokenId=${tenant.tokenId}`)).totalEstimate).toBe(4);
    expect((await q('actorTokenId=01900000-0000-7000-8000-000000000000')).items).toEqual([]);
    const future = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    expect((await q(`fromUtc=${future}`)).items).toEqual([]);
    expect((await q(`toUtc=${future}&take=500`)).take).toBe(200);
    const bad = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/audit-log?fromUtc=yesterday',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('fromUtc');
    const reversed = await t.as(tenant.token, {
      method: 'GET',
      url: `/api/v1/audit-log?fromUtc=${future}&toUtc=2020-01-01T00:00:00Z`,
    });
    expect(reversed.statusCode).toBe(400);
  });
});

describe('GET /api/v1/audit-log/export', () => {
  test('streams NDJSON of one consistent snapshot', async () => {
    const res = await t.as(tenant.token, { method: 'GET', url: '/api/v1/audit-log/export' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = res.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(4);
    expect(lines[0].action).toBe('api_token.create');
  });

  test('request scopes honour the route isolation level (the export asks for repeatable read)', async () => {
    const snapshot = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/test/isolation/snapshot',
    });
    expect(snapshot.json()).toEqual({ level: 'repeatable read' });
    const plain = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/test/isolation/default',
    });
    expect(plain.json()).toEqual({ level: 'read committed' });
  });
});
