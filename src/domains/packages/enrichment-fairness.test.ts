import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRegistries } from '../../../test/support/fake-registries/index';
import {
  createTestApp,
  storeScan,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { EVENT_SUBSCRIPTIONS, jobDefinitions } from '../../background-jobs';
import { loadConfig } from '../../config';
import { relayOutbox, takeOutbox } from '../../jobs/outbox';
import {
  createJobQueue,
  type JobEnvelope,
  type JobQueue,
  type SqlExecutor,
} from '../../jobs/queue';
import { DEPENDENCIES_CHANGED, DRIFT_SNAPSHOT, DRIFT_SNAPSHOT_DELAY_SECONDS, ENRICH } from './jobs';

/**
 * Enrichment scheduling between tenants (docs/package-intelligence.md#enrichment-scheduling): a
 * large scan's backlog of enrichment chunks must not hold back another tenant's small scan. The
 * chunks go through a real pg-boss queue and are fetched one at a time, as a worker would.
 */
let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakeRegistries>>;
let queue: JobQueue;
let big: TestTenant;
let small: TestTenant;
const CHUNK = 10;

beforeAll(async () => {
  fake = await startFakeRegistries();
  const defaults = loadConfig({}).packageIntel;
  t = await createTestApp({
    registries: fake.settings(),
    packageIntel: { ...defaults, enrichChunkSize: CHUNK },
  });
  queue = await createJobQueue(t.database);
  for (const definition of jobDefinitions(t.jobDeps)) queue.register(definition);
  await queue.prepare();
  big = await t.createTenant('enterprise', 'Big');
  small = await t.createTenant('enterprise', 'Small');
}, 120_000);

afterAll(async () => {
  await queue?.stop(5000);
  await t?.close();
  await fake?.close();
});

/** Stores a scan of `names`, runs its package job inline and puts its chunks on the queue. */
async function scanAndQueue(tenant: TestTenant, repo: string, names: string[]) {
  const deps = names.map((name) => ({ ecosystem: 'npm' as const, name, version: '1.0.0' }));
  await storeScan(t, tenant, repo, deps, new Date(), false);
  const handlers = new Map(jobDefinitions(t.jobDeps).map((d) => [d.name, d]));
  for (const { name, envelope } of await takeOutbox(t.database, EVENT_SUBSCRIPTIONS)) {
    if (name === DEPENDENCIES_CHANGED.name) await handlers.get(name)?.handle(envelope);
  }
  while ((await relayOutbox(t.database, EVENT_SUBSCRIPTIONS, relay)) > 0) {}
}

const relay = (name: string, envelope: Omit<JobEnvelope<unknown>, 'version'>, db: SqlExecutor) =>
  name === ENRICH.name ? queue.send(name, envelope, { db }) : Promise.resolve(null);

async function fetchedCount(names: string[]): Promise<number> {
  const rows = await t.database.system
    .selectFrom('package_metadata as m')
    .innerJoin('packages as p', 'p.id', 'm.package_id')
    .select('p.name')
    .where('p.ecosystem', '=', 'npm')
    .where('p.name', 'in', names)
    .execute();
  return rows.length;
}

async function waitingChunks(tenantId: string): Promise<number> {
  const result = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pgboss.job
     WHERE name = ${ENRICH.name} AND state = 'created' AND data->>'tenantId' = ${tenantId}`.execute(
    t.database.system,
  );
  return result.rows[0]?.n ?? 0;
}

describe('enrichment between tenants', () => {
  it("fetches a small scan's packages while a large scan's backlog is still waiting", async () => {
    const bigNames = fake.generate('npm', 40 * CHUNK, { versions: 3, offset: 50_000 });
    const smallNames = fake.generate('npm', 2 * CHUNK, { versions: 3, offset: 60_000 });
    await scanAndQueue(big, 'monorepo', bigNames);
    await scanAndQueue(small, 'service', smallNames);
    expect(await waitingChunks(big.tenantId)).toBe(40);
    expect(await waitingChunks(small.tenantId)).toBe(2);

    const enrich = jobDefinitions(t.jobDeps).find((d) => d.name === ENRICH.name);
    let handled = 0;
    // One chunk at a time, as a worker fetches them, until the small tenant's are all done.
    while ((await fetchedCount(smallNames)) < smallNames.length && handled < 50) {
      const [job] = await queue.boss.fetch<JobEnvelope<unknown>>(ENRICH.name);
      if (!job) break;
      await enrich?.handle(job.data);
      await queue.boss.complete(ENRICH.name, job.id);
      handled++;
    }
    expect(await fetchedCount(smallNames)).toBe(smallNames.length);
    // Round robin by chunk: the small scan's two chunks went after at most two of the large one's.
    expect(handled).toBeLessThanOrEqual(4);
    expect(await waitingChunks(big.tenantId)).toBeGreaterThanOrEqual(36);
    expect(await fetchedCount(bigNames)).toBeLessThanOrEqual(2 * CHUNK);
  }, 120_000);

  it('coalesces the drift snapshots asked for one scan while one waits', async () => {
    const envelope = {
      tenantId: big.tenantId,
      correlationId: null,
      data: {
        repositoryId: '0190a0a0-0000-7000-8000-000000000001',
        scanId: '0190a0a0-0000-7000-8000-000000000002',
      },
    };
    const first = await queue.send(DRIFT_SNAPSHOT.name, envelope);
    const second = await queue.send(DRIFT_SNAPSHOT.name, envelope);
    const other = await queue.send(DRIFT_SNAPSHOT.name, {
      ...envelope,
      data: { ...envelope.data, scanId: '0190a0a0-0000-7000-8000-000000000003' },
    });
    expect(first).toEqual(expect.any(String));
    expect(second).toBeNull();
    expect(other).toEqual(expect.any(String));
    const job = await queue.boss.getJobById(DRIFT_SNAPSHOT.name, first as string);
    const delay = ((job?.startAfter.getTime() ?? 0) - Date.now()) / 1000;
    expect(delay).toBeGreaterThan(DRIFT_SNAPSHOT_DELAY_SECONDS - 5);
  });
});
