import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { provided } from '../../test/support/provided';
import { createScratchDatabase } from '../../test/support/service-process';
import { type StreamingReplica, startStreamingReplica } from '../../test/support/streaming-replica';
import {
  closingAlso,
  createTestApp,
  type TestApp,
  type TestTenant,
} from '../../test/support/test-app';
import { type Database, openDatabase } from './connection';
import { migrate } from './migrate';
import { openReadReplica, type ReadReplica, type ReadSource } from './replica';

// The replica tests need a real streaming standby of the PostgreSQL server: PostgreSQL tier only.
const serverUrl = process.env.TEST_DATABASE_URL ?? null;
let skipReason: string | null = serverUrl
  ? null
  : 'read replica: PostgreSQL tier only (TEST_DATABASE_URL unset), skipped';
let standby: StreamingReplica | null = null;
let scratchUrl = '';
/** Reads routed to the replica when fresh. */
let t: TestApp;
/** The same database without a replica: what the primary answers. */
let primaryOnly: TestApp;
let a: TestTenant;
let b: TestTenant;

const AUDIT = { method: 'GET', url: '/api/v1/audit-log?take=200' } as const;

function replicaOf(app: TestApp): ReadReplica {
  if (!app.database.replica) throw new Error('the test app has no replica');
  return app.database.replica;
}

function deltaOf(app: TestApp, run: () => Promise<unknown>) {
  const before = { ...replicaOf(app).served };
  return async (): Promise<Record<ReadSource, number>> => {
    await run();
    const after = replicaOf(app).served;
    return {
      replica: after.replica - before.replica,
      'primary-behind': after['primary-behind'] - before['primary-behind'],
      'primary-skipped': after['primary-skipped'] - before['primary-skipped'],
      'primary-unreachable': after['primary-unreachable'] - before['primary-unreachable'],
    };
  };
}

async function onStandby<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  if (!standby) throw new Error('no standby');
  const client = new pg.Client({ connectionString: standby.urlFor(scratchUrl) });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The replica serves once it has caught up; other test files writing meanwhile may delay it. */
async function servedByReplica(token: string) {
  for (let attempt = 0; attempt < 50; attempt++) {
    await standby?.caughtUp();
    const before = replicaOf(t).served.replica;
    const res = await t.as(token, AUDIT);
    if (replicaOf(t).served.replica > before) return res;
  }
  throw new Error('the replica never served the read');
}

beforeAll(async () => {
  if (!serverUrl) return;
  const started = await startStreamingReplica(serverUrl);
  if ('skip' in started) {
    skipReason = `read replica: ${started.skip}`;
    return;
  }
  standby = started.replica;
  const scratch = await createScratchDatabase(serverUrl, provided('postgresTemplate'));
  scratchUrl = scratch.url;
  const routed = await openDatabase({
    url: scratch.url,
    dataDir: null,
    poolSize: 4,
    readUrl: standby.urlFor(scratch.url),
    readMaxLagMs: 60_000,
  });
  await migrate(routed.pool);
  t = await createTestApp({}, { database: closingAlso(routed, scratch.drop) });
  primaryOnly = await createTestApp(
    {},
    { database: await openDatabase({ url: scratch.url, dataDir: null, poolSize: 2 }) },
  );
  a = await t.createTenant('enterprise', 'A');
  b = await t.createTenant('enterprise', 'B');
  for (const name of ['one', 'two', 'three']) {
    const res = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name, roleScopeJson: null, expiresAtUtc: null },
    });
    expect(res.statusCode).toBe(201);
  }
  await standby.caughtUp();
}, 120_000);

afterAll(async () => {
  await primaryOnly?.close();
  await t?.close();
  await standby?.remove();
}, 60_000);

describe('read replica (DATABASE_READ_URL)', () => {
  test('a replica-routed list reads the replica and answers as the primary does', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const fromReplica = await servedByReplica(a.token);
    const fromPrimary = await primaryOnly.as(a.token, AUDIT);
    expect(fromReplica.statusCode).toBe(200);
    expect(fromReplica.json().items).toHaveLength(3);
    expect(fromReplica.json()).toEqual(fromPrimary.json());

    // Figures for docs/scaling.md: the routed read pays one replica round trip for the check.
    const time = async (app: TestApp, n: number) => {
      const started = performance.now();
      for (let i = 0; i < n; i++) await app.as(a.token, AUDIT);
      return (performance.now() - started) / n;
    };
    await time(t, 5);
    const routedMs = await time(t, 40);
    const primaryMs = await time(primaryOnly, 40);
    // Replay lag as a poller sees it: a write's commit until the standby has replayed it (an
    // upper bound: each poll opens a connection to both servers).
    const lags: number[] = [];
    const writer = await t.createTenant('enterprise', 'Lag');
    for (let i = 0; i < 5; i++) {
      await t.as(writer.token, {
        method: 'POST',
        url: '/api/v1/api-tokens',
        payload: { name: `lag ${i}`, roleScopeJson: null, expiresAtUtc: null },
      });
      const started = performance.now();
      await standby?.caughtUp();
      lags.push(performance.now() - started);
    }
    console.log(`replay lag after a write (ms): ${lags.map((ms) => ms.toFixed(1)).join(', ')}`);
    console.log(
      `replica-routed GET audit-log ${routedMs.toFixed(2)} ms, primary-only ${primaryMs.toFixed(2)} ms, served ${JSON.stringify(replicaOf(t).served)}`,
    );
  });

  test('with replay paused, a write and then a read of the same tenant stay fresh (primary)', async (ctx) => {
    if (skipReason || !standby) return ctx.skip(skipReason ?? '');
    const revocable = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'to revoke', roleScopeJson: null, expiresAtUtc: null },
    });
    const { apiTokenId, token } = revocable.json();
    await standby.caughtUp();
    await standby.pauseReplay();
    try {
      const lagStarted = performance.now();
      const created = await t.as(a.token, {
        method: 'POST',
        url: '/api/v1/api-tokens',
        payload: { name: 'written while paused', roleScopeJson: null, expiresAtUtc: null },
      });
      expect(created.statusCode).toBe(201);
      const createdId: string = created.json().apiTokenId;
      // The write is really not on the replica: a stale read would miss it.
      const onReplica = await onStandby('SELECT 1 FROM audit_log WHERE resource_id = $1', [
        createdId,
      ]);
      expect(onReplica).toEqual([]);

      let res = await t.as(a.token, AUDIT);
      const counted = await deltaOf(t, async () => {
        res = await t.as(a.token, AUDIT);
      })();
      expect(res.statusCode).toBe(200);
      const ids = res.json().items.map((item: { resourceId: string }) => item.resourceId);
      expect(ids).toContain(createdId);
      expect(counted.replica).toBe(0);
      expect(counted['primary-behind']).toBe(1);

      // Another tenant: correct data and no sight of A's rows (the rule is global: the primary
      // answers every routed read until the replica has replayed what was committed before it).
      const other = await t.as(b.token, AUDIT);
      expect(other.statusCode).toBe(200);
      expect(other.json().items).toEqual([]);

      // A revocation counts at once: tokens are always checked on the primary.
      const revoked = await t.as(a.token, {
        method: 'DELETE',
        url: `/api/v1/api-tokens/${apiTokenId}`,
      });
      expect(revoked.statusCode).toBe(204);
      expect((await t.as(token, AUDIT)).statusCode).toBe(401);

      await standby.resumeReplay();
      await standby.caughtUp();
      console.log(`replay paused for ${(performance.now() - lagStarted).toFixed(0)} ms`);
      const fresh = await servedByReplica(a.token);
      expect(fresh.json().items.map((i: { resourceId: string }) => i.resourceId)).toContain(
        createdId,
      );
    } finally {
      await standby.resumeReplay();
    }
  });

  test('row-level security holds on the replica', async (ctx) => {
    if (skipReason || !standby) return ctx.skip(skipReason ?? '');
    const res = await servedByReplica(b.token);
    expect(res.json().items).toEqual([]);
    const repositories = await t.as(b.token, { method: 'GET', url: '/api/v1/repositories' });
    expect(repositories.statusCode).toBe(200);
    expect(repositories.json().items).toEqual([]);
    // The replica's scoped session itself: A's rows exist there, B's scope sees none of them.
    const [all] = await onStandby<{ n: number }>(
      'SELECT count(*)::int AS n FROM audit_log WHERE tenant_id = $1',
      [a.tenantId],
    );
    expect(all?.n).toBeGreaterThan(0);
    const client = await replicaOf(t).scopedClient(b.tenantId, '0/0');
    if (!client) throw new Error('the replica did not scope a session');
    try {
      const seen = await client.query('SELECT count(*)::int AS n FROM audit_log');
      expect(seen.rows[0]?.n).toBe(0);
      await expect(client.query(`SELECT pg_wal_replay_pause()`)).rejects.toThrow();
    } finally {
      client.release();
    }
  });

  test('a replica behind for longer than the lag bound is skipped for as long', async (ctx) => {
    if (skipReason || !standby) return ctx.skip(skipReason ?? '');
    const bounded = openReadReplica({
      url: standby.urlFor(scratchUrl),
      poolSize: 1,
      maxLagMs: 100,
      connectTimeoutMs: 1000,
    });
    await standby.pauseReplay();
    try {
      // A write after the pause, then the position the replica would have to reach.
      const written = await t.as(a.token, {
        method: 'POST',
        url: '/api/v1/api-tokens',
        payload: { name: 'behind', roleScopeJson: null, expiresAtUtc: null },
      });
      expect(written.statusCode).toBe(201);
      const [row] = (
        await primaryOnly.database.pool.query<{ lsn: string }>(
          'SELECT pg_current_wal_lsn()::text AS lsn',
        )
      ).rows;
      const lsn = row?.lsn ?? '';
      const started = Date.now();
      while (Date.now() - started < 300) {
        const client = await bounded.scopedClient(a.tenantId, lsn);
        client?.release();
        expect(client).toBeNull();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(bounded.served['primary-behind']).toBeGreaterThan(0);
      expect(bounded.served['primary-skipped']).toBeGreaterThan(0);
      expect(bounded.served.replica).toBe(0);
    } finally {
      await standby.resumeReplay();
      await bounded.close();
    }
  });

  test('with the replica down, routed reads still succeed from the primary', async (ctx) => {
    if (skipReason || !standby) return ctx.skip(skipReason ?? '');
    await standby.stop();
    const started = performance.now();
    const res = await t.as(a.token, AUDIT);
    const firstMs = performance.now() - started;
    const counted = await deltaOf(t, () => t.as(b.token, AUDIT))();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual((await primaryOnly.as(a.token, AUDIT)).json());
    expect(counted.replica).toBe(0);
    expect(counted['primary-unreachable']).toBe(1);
    console.log(`first read with the replica down: ${firstMs.toFixed(1)} ms`);
  });
});

describe('DATABASE_READ_URL without PostgreSQL', () => {
  test('the embedded database ignores it: every read uses the primary', async () => {
    if (serverUrl) return;
    const database: Database = await openDatabase({
      url: null,
      dataDir: null,
      poolSize: 1,
      readUrl: 'postgres://postgres@127.0.0.1:1/none',
    });
    try {
      expect(database.replica).toBeNull();
    } finally {
      await database.close();
    }
  });
});
