import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createTestApp,
  storeScan,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { createScratchDatabase } from '../../../test/support/service-process';
import {
  receiverConfig,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver';
import { tokenWithRole } from '../../../test/support/workspace';
import { withTenant } from '../../db/tenant-scope';
import { runDailyRollups } from '../analytics/jobs';
import { queueScheduledRuns } from './jobs';

/**
 * Warehouse export (docs/workspace.md#warehouse-export): runs against the PostgreSQL server on
 * this machine (a scratch database made and dropped here) and the local HTTPS receiver.
 */
const WAREHOUSE_SERVER =
  process.env.EXPORT_TEST_POSTGRES_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const BASE = '/api/v1/analytics/export/destinations';

let t: TestApp;
let tenant: TestTenant;
let other: TestTenant;
let receiver: WebhookReceiver;
let warehouse: { url: string; drop: () => Promise<void> } | null = null;
let warehouseProblem = '';

async function scan(name: string, version: string, when = new Date()) {
  await storeScan(t, tenant, name, [{ ecosystem: 'npm', name: 'left-pad', version }], when, false);
}

beforeAll(async () => {
  receiver = await startWebhookReceiver('/export');
  t = await createTestApp(receiverConfig(receiver));
  tenant = await t.createTenant('enterprise');
  other = await t.createTenant('enterprise');
  try {
    warehouse = await createScratchDatabase(WAREHOUSE_SERVER);
  } catch (error) {
    warehouseProblem = `no PostgreSQL server at ${WAREHOUSE_SERVER}: ${(error as Error).message}`;
  }
  await scan('api', '1.0.0', new Date(Date.now() - 3 * 86_400_000));
  await scan('web', '1.1.0', new Date(Date.now() - 2 * 86_400_000));
  await t.runJobs();
  // Finished days in the rollups: the daily facts.
  await runDailyRollups(t.jobDeps, tenant.tenantId, new Date(Date.now() - 86_400_000));
}, 180_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await warehouse?.drop();
});

const post = (token: string, url: string, payload?: object) =>
  t.as(token, { method: 'POST', url, ...(payload ? { payload } : {}) });
const get = (token: string, url: string) => t.as(token, { method: 'GET', url });

async function runs(id: string, limit = 20) {
  const res = await get(tenant.token, `${BASE}/${id}/runs?limit=${limit}`);
  expect(res.statusCode).toBe(200);
  return res.json().items as Array<Record<string, unknown>>;
}

async function triggerAndRun(id: string) {
  const res = await post(tenant.token, `${BASE}/${id}/runs`);
  expect(res.statusCode).toBe(202);
  expect(res.json().state).toBe('queued');
  await t.runJobs();
  return (await runs(id, 1))[0] as Record<string, unknown>;
}

describe('destinations: roles, plan, validation, tenants', () => {
  test('members read, admins write, plans without the feature get 403', async () => {
    const member = await tokenWithRole(t, tenant, 'member');
    const viewer = await tokenWithRole(t, tenant, 'viewer');
    const body = { name: 'hook', kind: 'https', url: receiver.url };
    expect((await post(member, BASE, body)).statusCode).toBe(403);
    expect((await get(viewer, BASE)).statusCode).toBe(403);
    expect((await get(member, BASE)).statusCode).toBe(200);
    // One destination: members read it and its runs, but neither run nor delete it.
    const created = await post(tenant.token, BASE, body);
    expect(created.statusCode).toBe(201);
    const one = `${BASE}/${created.json().destinationId}`;
    const read = await get(member, one);
    expect(read.statusCode).toBe(200);
    expect(read.json().destinationId).toBe(created.json().destinationId);
    expect(read.json()).not.toHaveProperty('secret');
    expect((await get(viewer, one)).statusCode).toBe(403);
    expect((await get(member, `${one}/runs`)).statusCode).toBe(200);
    expect((await post(member, `${one}/runs`)).statusCode).toBe(403);
    expect((await t.as(member, { method: 'DELETE', url: one })).statusCode).toBe(403);
    expect((await get(tenant.token, `${one}/runs`)).json().items).toEqual([]);
    expect((await get(tenant.token, one)).statusCode).toBe(200);
    expect((await t.as(tenant.token, { method: 'DELETE', url: one })).statusCode).toBe(204);
    const team = await t.createTenant('team');
    expect((await get(team.token, BASE)).statusCode).toBe(403);
    expect((await post(team.token, BASE, body)).statusCode).toBe(403);
  });

  test('bad bodies are 400 or 422 naming the field; internal hosts are refused', async () => {
    const cases: Array<[object, number, string | null]> = [
      [{ name: 'x', kind: 'ftp', url: receiver.url }, 400, null],
      [{ name: 'x', kind: 'https', url: receiver.url, extra: 1 }, 400, null],
      [{ name: 'x', kind: 'https' }, 422, 'url'],
      [{ name: 'x', kind: 'https', url: 'http://example.test/' }, 422, 'url'],
      [{ name: '', kind: 'https', url: receiver.url }, 422, 'name'],
      [{ name: 'x', kind: 'postgresql' }, 422, 'connectionString'],
      [
        { name: 'x', kind: 'postgresql', connectionString: 'mysql://a@b/c' },
        422,
        'connectionString',
      ],
      [
        { name: 'x', kind: 'postgresql', connectionString: 'postgres://u@h/db?host=/tmp' },
        422,
        'connectionString',
      ],
      [
        { name: 'x', kind: 'postgresql', connectionString: 'postgres://@h/db' },
        422,
        'connectionString',
      ],
      // Cloud metadata is refused even by the tests' loopback allowance.
      [
        { name: 'x', kind: 'postgresql', connectionString: 'postgres://u@169.254.169.254/db' },
        422,
        'connectionString',
      ],
      [{ name: 'x', kind: 'https', url: 'https://169.254.169.254/x' }, 422, 'url'],
    ];
    for (const [payload, status, field] of cases) {
      const res = await post(tenant.token, BASE, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.headers['content-type']).toContain('application/problem+json');
      if (field) expect(Object.keys(res.json().errors)).toContain(field);
    }
    expect((await get(tenant.token, BASE)).json().total).toBe(0);
  });

  test("another tenant's destination is a 404 on every route; limit is checked", async () => {
    const created = await post(tenant.token, BASE, {
      name: 'mine',
      kind: 'https',
      url: receiver.url,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().destinationId;
    expect((await get(other.token, `${BASE}/${id}`)).statusCode).toBe(404);
    expect((await get(other.token, `${BASE}/${id}/runs`)).statusCode).toBe(404);
    expect((await post(other.token, `${BASE}/${id}/runs`)).statusCode).toBe(404);
    expect((await t.as(other.token, { method: 'DELETE', url: `${BASE}/${id}` })).statusCode).toBe(
      404,
    );
    expect((await get(other.token, BASE)).json().items).toEqual([]);
    expect((await get(tenant.token, `${BASE}/${id}/runs?limit=0`)).statusCode).toBe(400);
    expect((await get(tenant.token, `${BASE}/${id}/runs?limit=x`)).statusCode).toBe(400);
    expect((await get(tenant.token, `${BASE}/not-a-uuid`)).statusCode).toBe(400);
    expect((await t.as(tenant.token, { method: 'DELETE', url: `${BASE}/${id}` })).statusCode).toBe(
      204,
    );
    expect((await get(tenant.token, `${BASE}/${id}`)).statusCode).toBe(404);
    expect((await t.as(tenant.token, { method: 'DELETE', url: `${BASE}/${id}` })).statusCode).toBe(
      404,
    );
  });
});

describe('a PostgreSQL destination', () => {
  test('tables created on the first run, the second run appends only new rows', async (context) => {
    // With TEST_DATABASE_URL (the PostgreSQL CI mode) a server is promised: no skipping.
    if (!warehouse && process.env.TEST_DATABASE_URL) throw new Error(warehouseProblem);
    if (!warehouse) return context.skip(warehouseProblem);
    const url = new URL(warehouse.url);
    url.password = 'never-shown-pw';
    url.searchParams.set('sslmode', 'disable');
    const created = await post(tenant.token, BASE, {
      name: 'warehouse',
      kind: 'postgresql',
      connectionString: url.toString(),
    });
    expect(created.statusCode).toBe(201);
    const destination = created.json();
    expect(destination.secret).toBeNull();
    expect(destination.target).not.toContain('never-shown-pw');
    const stored = await withTenant(t.database, tenant.tenantId, (db) =>
      db.selectFrom('analytics_export_destinations').selectAll().executeTakeFirstOrThrow(),
    );
    expect(stored.secret_sealed).not.toContain('never-shown-pw');
    expect(t.secretBox.open(stored.secret_sealed)).toContain('never-shown-pw');

    const first = await triggerAndRun(destination.destinationId);
    expect(first.state, JSON.stringify(first.errors)).toBe('succeeded');
    expect(first.errors).toEqual([]);
    expect(first.tables).toMatchObject({ scans: 2 });
    expect((first.tables as Record<string, number>).daily).toBeGreaterThan(0);
    expect(first.rows).toBe(Object.values(first.tables as object).reduce((a, b) => a + b, 0));
    expect(first.bytes).toBeGreaterThan(0);
    expect(first.durationMs).toEqual(expect.any(Number));

    const client = new pg.Client({ connectionString: warehouse.url });
    await client.connect();
    try {
      const count = async (table: string) =>
        Number(
          (
            await client.query(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = $1`, [
              tenant.tenantId,
            ])
          ).rows[0].n,
        );
      expect(await count('driftwatch_scans')).toBe(2);
      const sent = await client.query(
        'SELECT scan_id, state, finished_at FROM driftwatch_scans WHERE tenant_id = $1',
        [tenant.tenantId],
      );
      for (const row of sent.rows) {
        expect(row.state).toBe('completed');
        expect(row.finished_at).toBeInstanceOf(Date);
      }
      const scopes = await client.query(
        'SELECT DISTINCT scope_repository_id, scope_ecosystem FROM driftwatch_daily WHERE tenant_id = $1',
        [tenant.tenantId],
      );
      // The tenant's own row (every repository, every ecosystem) and per-repository rows.
      expect(scopes.rows).toContainEqual({ scope_repository_id: '*', scope_ecosystem: '*' });
      expect(scopes.rows.some((row) => row.scope_repository_id !== '*')).toBe(true);
      // Created on the first run even with no rows yet.
      expect(await count('driftwatch_exposures_opened')).toBe(0);

      await scan('worker', '1.2.0');
      const second = await triggerAndRun(destination.destinationId);
      expect(second.state).toBe('succeeded');
      expect(second.tables).toEqual({ scans: 1, exposures: 0, daily: 0 });
      expect(second.rows).toBe(1);
      expect(await count('driftwatch_scans')).toBe(3);
      const third = await triggerAndRun(destination.destinationId);
      expect(third.rows).toBe(0);
      expect(await count('driftwatch_scans')).toBe(3);
    } finally {
      await client.end();
    }
    const recent = await runs(destination.destinationId, 2);
    expect(recent.map((run) => run.rows)).toEqual([0, 1]);
  });

  test('an unreachable database is a failed run with a plain error', async () => {
    const created = await post(tenant.token, BASE, {
      name: 'closed',
      kind: 'postgresql',
      connectionString: 'postgres://postgres@127.0.0.1:1/nowhere?sslmode=disable',
    });
    const run = await triggerAndRun(created.json().destinationId);
    expect(run.state).toBe('failed');
    expect(run.errors).toEqual(['the destination could not be reached']);
    await t.as(tenant.token, { method: 'DELETE', url: `${BASE}/${created.json().destinationId}` });
  });
});

describe('an HTTPS destination', () => {
  test('signed gzip NDJSON batches; a failing destination blocks no other', async () => {
    const created = await post(tenant.token, BASE, {
      name: 'lake',
      kind: 'https',
      url: receiver.url,
    });
    const { destinationId, secret } = created.json();
    expect(secret).toMatch(/^whsec_/);
    const failing = await post(tenant.token, BASE, {
      name: 'down',
      kind: 'https',
      url: 'https://127.0.0.1:1/export',
    });
    receiver.received.length = 0;
    const queued = await queueScheduledRuns(t.jobDeps);
    expect(queued).toBeGreaterThanOrEqual(2);
    await t.runJobs();

    const failed = (await runs(failing.json().destinationId, 1))[0];
    expect(failed).toMatchObject({ state: 'failed', trigger: 'schedule', rows: 0 });
    const run = (await runs(destinationId, 1))[0] as Record<string, unknown>;
    expect(run.state, JSON.stringify(run.errors)).toBe('succeeded');
    expect(run.rows).toBeGreaterThanOrEqual(3);
    const lines: Array<Record<string, unknown>> = [];
    let gzipBytes = 0;
    for (const request of receiver.received) {
      expect(request.headers['content-encoding']).toBe('gzip');
      expect(request.headers['content-type']).toBe('application/x-ndjson');
      const ndjson = gunzipSync(request.raw).toString('utf8');
      gzipBytes += request.raw.length;
      // webhook-signature is the Standard Webhooks HMAC of id, timestamp and the NDJSON text
      // (the library's verify would also JSON-parse the payload, which NDJSON is not).
      const signedAt = new Date(Number(request.headers['webhook-timestamp']) * 1000);
      const sign = (payload: string) =>
        new Webhook(secret).sign(request.headers['webhook-id'] ?? '', signedAt, payload);
      expect(request.headers['webhook-signature']).toBe(sign(ndjson));
      expect(request.headers['webhook-signature']).not.toBe(sign(`${ndjson} `));
      expect(Math.abs(signedAt.getTime() - Date.now())).toBeLessThan(60_000);
      const rows = ndjson
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(rows).toHaveLength(Number(request.headers['driftwatch-export-rows']));
      lines.push(
        ...rows.map((row) => ({ ...row, table: request.headers['driftwatch-export-table'] })),
      );
    }
    expect(run.bytes).toBe(gzipBytes);
    expect(lines.length).toBe(run.rows);
    expect(lines.filter((line) => line.table === 'scans')).toHaveLength(3);
    expect(lines.every((line) => line.tenant_id === tenant.tenantId)).toBe(true);

    // The next run sends nothing it sent before.
    receiver.received.length = 0;
    const again = await triggerAndRun(destinationId);
    expect(again).toMatchObject({ state: 'succeeded', rows: 0 });
    expect(receiver.received).toHaveLength(0);
    // A receiver answering 500 fails the run and keeps the watermark.
    await scan('cron', '1.3.0');
    receiver.fallbackStatus = 500;
    const refused = await triggerAndRun(destinationId);
    receiver.fallbackStatus = 200;
    expect(refused).toMatchObject({
      state: 'failed',
      rows: 0,
      errors: ['scans: the endpoint answered 500'],
    });
    const retried = await triggerAndRun(destinationId);
    expect(retried).toMatchObject({ state: 'succeeded', rows: 1 });
  });
});
