import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../../../test/support/eventually';
import {
  createGitRepository,
  type GitFixture,
  POLYGLOT_FILES,
} from '../../../../test/support/git-fixtures';
import { scanEndRecorder } from '../../../../test/support/job-observer';
import {
  createTestApp,
  insertRepository,
  type TestApp,
  type TestTenant,
} from '../../../../test/support/scenarios';
import { EVENT_SUBSCRIPTIONS } from '../../../background-jobs';
import { newId } from '../../../db/ids';
import { withTenant } from '../../../db/tenant-scope';
import { takeOutbox } from '../../../jobs/outbox';
import { queueScan, RUN_SCAN } from '../service';
import { removeAbandonedCheckouts, runScanJob, sweepStaleScans } from './worker';

// Checkouts go under a directory of this test file's own, so "removed" can be checked.
// Test files share one process (vitest.config.ts): stubbed, and restored after the file.
const scratch = mkdtempSync(join(tmpdir(), 'driftwatch-worker-test-'));
vi.stubEnv('TMPDIR', scratch);
const checkoutsLeft = () =>
  readdirSync(scratch).filter((name) => name.startsWith('driftwatch-scan-'));

describe('scan worker', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let repo: GitFixture;
  const defaults = () => ({ ...t.config.scans });
  let saved: TestApp['config']['scans'];

  beforeAll(async () => {
    mkdirSync(scratch, { recursive: true });
    t = await createTestApp();
    repo = createGitRepository(POLYGLOT_FILES);
    saved = defaults();
  });
  /**
   * The scan ends the runs reported to the job observer (docs/operations.md#metrics), per test:
   * the run that ended a scan reports it once, from the row of its final move.
   */
  let ends: string[] = [];
  // A tenant per test: a clone URL is imported once per tenant.
  beforeEach(async () => {
    tenant = await t.createTenant();
    const recorder = scanEndRecorder();
    ends = recorder.ends;
    t.jobDeps.observe = recorder.observer;
  });
  afterAll(async () => {
    repo.remove();
    await t.close();
    vi.unstubAllEnvs();
  });

  function addRepository(cloneUrl: string, branch = 'main'): Promise<string> {
    const name = `r-${newId().slice(-6)}`;
    return insertRepository(t, tenant.tenantId, name, {
      full_name: `fixtures/${name}`,
      clone_url: cloneUrl,
      default_branch: branch,
    });
  }

  const trigger = (repositoryId: string) =>
    withTenant(t.database, tenant.tenantId, (db) =>
      queueScan(db, {
        tenantId: tenant.tenantId,
        repositoryId,
        trigger: 'manual',
        correlationId: 'test',
      }),
    );
  const scanOf = (scanId: string) =>
    withTenant(t.database, tenant.tenantId, (db) =>
      db.selectFrom('scans').selectAll().where('id', '=', scanId).executeTakeFirstOrThrow(),
    );
  const logsOf = (scanId: string) =>
    withTenant(t.database, tenant.tenantId, (db) =>
      db
        .selectFrom('scan_logs')
        .selectAll()
        .where('scan_id', '=', scanId)
        .orderBy('logged_at')
        .orderBy('id')
        .execute(),
    );

  it('checks out, extracts every ecosystem, stores the graph, logs each step and cleans up', async () => {
    const repositoryId = await addRepository(repo.url);
    const { scan } = await trigger(repositoryId);
    expect(await t.runJobs()).toContain(RUN_SCAN.name);
    const done = await scanOf(scan.id);
    expect(done.state).toBe('completed');
    expect(done.attempt).toBe(1);
    expect(done.commit_sha).toBe(
      (await import('../../../../test/support/git-fixtures')).git(
        repo.directory,
        'rev-parse',
        'HEAD',
      ),
    );
    expect(done.counts_by_ecosystem).toEqual({ npm: 3, Cargo: 1, Go: 1, PyPI: 2 });
    expect(done.dependency_count).toBe(7);
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
    const steps = (await logsOf(scan.id)).map((line) => line.step);
    expect(steps).toEqual([
      'start',
      'checkout',
      'checkout',
      'extract',
      'reachability',
      'quantum',
      'store',
      'cleanup',
      // The policy evaluation after matching (the jobs ran): the line the CI gate waits for.
      'policies',
    ]);
    const deps = await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .selectFrom('repository_dependencies')
        .select(['ecosystem', 'name', 'version', 'scope', 'file', 'parents', 'scan_id'])
        .where('repository_id', '=', repositoryId)
        .orderBy('ecosystem')
        .orderBy('name')
        .execute(),
    );
    // The projects' own packages are stored (scope self) but not counted above.
    expect(deps.map((d) => `${d.ecosystem}:${d.name}@${d.version} ${d.scope}`)).toEqual([
      'Cargo:engine@0.1.0 self',
      'Cargo:serde@1.0.193 runtime',
      'Go:example.com/svc@null self',
      'Go:github.com/google/uuid@v1.4.0 runtime',
      'PyPI:requests@2.31.0 runtime',
      'PyPI:urllib3@2.1.0 runtime',
      'npm:body-parser@1.20.1 runtime',
      'npm:debug@2.6.9 runtime',
      'npm:express@4.18.2 runtime',
      'npm:web@1.0.0 self',
    ]);
    expect(deps.every((d) => d.scan_id === scan.id)).toBe(true);
    const repository = await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .selectFrom('repositories')
        .selectAll()
        .where('id', '=', repositoryId)
        .executeTakeFirstOrThrow(),
    );
    expect(repository.last_scan_id).toBe(scan.id);
    expect(checkoutsLeft()).toEqual([]);

    // A second delivery of the same job finds the scan finished and does nothing.
    await runScanJob(t.jobDeps, {
      version: 1,
      tenantId: tenant.tenantId,
      correlationId: null,
      data: { scanId: scan.id, repositoryId },
    });
    expect((await scanOf(scan.id)).attempt).toBe(1);
    expect((await logsOf(scan.id)).length).toBe(9);
    // Reported once, by the run that completed it; the second delivery ended nothing.
    expect(ends).toEqual(['completed']);
  });

  it("fails with git's reason when the branch does not exist, and removes the checkout", async () => {
    const repositoryId = await addRepository(repo.url, 'no-such-branch');
    const { scan } = await trigger(repositoryId);
    await t.runJobs();
    const done = await scanOf(scan.id);
    expect(done.state).toBe('failed');
    expect(done.error).toMatch(/no-such-branch/);
    // The tenant's own repository failed it, not the service (docs/status.md#components).
    expect(done.failure_cause).toBe('input');
    const logs = await logsOf(scan.id);
    expect(logs.some((l) => l.level === 'error' && l.step === 'checkout')).toBe(true);
    expect(checkoutsLeft()).toEqual([]);
    expect(ends).toEqual(['failed']);
  });

  it('fails a checkout over the configured size with a clear line', async () => {
    t.config.scans.maxCheckoutBytes = 4096;
    try {
      const big = createGitRepository({ 'data.bin': 'x'.repeat(200_000), ...POLYGLOT_FILES });
      const repositoryId = await addRepository(big.url);
      const { scan } = await trigger(repositoryId);
      await t.runJobs();
      big.remove();
      const done = await scanOf(scan.id);
      expect(done.state).toBe('failed');
      expect(done.error).toMatch(/larger than the configured maximum of 4096 bytes/);
      expect(checkoutsLeft()).toEqual([]);
    } finally {
      t.config.scans = { ...saved };
    }
  });

  it('refuses file:// clone URLs when configuration does not allow them', async () => {
    t.config.scans.allowFileUrls = false;
    try {
      const repositoryId = await addRepository(repo.url);
      const { scan } = await trigger(repositoryId);
      await t.runJobs();
      const done = await scanOf(scan.id);
      expect(done.state).toBe('failed');
      expect(done.error).toMatch(/file:\/\/ clone URLs are disabled/);
    } finally {
      t.config.scans = { ...saved };
    }
  });

  describe('against a server that never answers', () => {
    let server: Server;
    const sockets = new Set<Socket>();
    let url: string;
    beforeAll(async () => {
      server = createServer((socket) => {
        sockets.add(socket); // accept and say nothing: ssh waits for a banner forever
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address() as { port: number };
      url = `ssh://git@127.0.0.1:${address.port}/silent/repo.git`;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });

    it('kills a checkout that takes too long and fails the scan, without crashing', async () => {
      t.config.scans.checkoutTimeoutSeconds = 1;
      try {
        const repositoryId = await addRepository(url);
        const { scan } = await trigger(repositoryId);
        await t.runJobs();
        const done = await scanOf(scan.id);
        expect(done.state).toBe('failed');
        expect(done.error).toMatch(/longer than 1 s/);
        expect(checkoutsLeft()).toEqual([]);
      } finally {
        t.config.scans = { ...saved };
      }
    });

    it('stops a running scan that is cancelled, at its next step', async () => {
      t.config.scans.checkoutTimeoutSeconds = 120;
      t.config.scans.heartbeatSeconds = 1;
      try {
        const repositoryId = await addRepository(url);
        const { scan } = await trigger(repositoryId);
        const running = t.runJobs();
        // Wait until the worker claimed it, then cancel the way the API does.
        await eventually(async () => (await scanOf(scan.id)).state === 'running', {
          what: 'the worker to claim the scan',
        });
        await withTenant(t.database, tenant.tenantId, (db) =>
          db
            .updateTable('scans')
            .set({ state: 'cancelled', finished_at: sql`now()` })
            .where('id', '=', scan.id)
            .execute(),
        );
        await running;
        const done = await scanOf(scan.id);
        expect(done.state).toBe('cancelled');
        const logs = await logsOf(scan.id);
        expect(logs.some((l) => l.level === 'warn' && /cancelled/.test(l.message))).toBe(true);
        expect(checkoutsLeft()).toEqual([]);
        // The stopped run reports the cancel that ended its attempt.
        expect(ends).toEqual(['cancelled']);
      } finally {
        t.config.scans = { ...saved };
      }
    });
    it('a run whose scan was re-queued by the sweep (it hung) stops; only the new run writes', async () => {
      t.config.scans.checkoutTimeoutSeconds = 120;
      t.config.scans.heartbeatSeconds = 1;
      try {
        const repositoryId = await addRepository(url);
        const { scan } = await trigger(repositoryId);
        const running = t.runJobs();
        await eventually(async () => (await scanOf(scan.id)).state === 'running', {
          what: 'the worker to claim the scan',
        });
        // The hung run looks dead to the sweep; the repository now points at a good remote.
        await withTenant(t.database, tenant.tenantId, async (db) => {
          await db
            .updateTable('scans')
            .set({ heartbeat_at: sql`now() - interval '1 hour'` })
            .where('id', '=', scan.id)
            .execute();
          await db
            .updateTable('repositories')
            .set({ clone_url: repo.url })
            .where('id', '=', repositoryId)
            .execute();
        });
        expect(await sweepStaleScans(t.jobDeps)).toEqual({ requeued: 1, failed: 0 });
        await running;
        await t.runJobs();
        const done = await scanOf(scan.id);
        expect(done).toMatchObject({ state: 'completed', attempt: 2, error: null });
        const logs = await logsOf(scan.id);
        expect(logs.some((l) => l.step === 'recovery')).toBe(true);
        expect(logs.some((l) => l.level === 'warn' && /taken over/.test(l.message))).toBe(true);
        expect(logs.filter((l) => l.step === 'store')).toHaveLength(1);
        expect(checkoutsLeft()).toEqual([]);
        // The run taken over ended nothing; the new attempt's completion is reported once.
        expect(ends).toEqual(['completed']);
      } finally {
        t.config.scans = { ...saved };
      }
    });
  });

  it('re-queues a scan whose worker died, then fails it after the last attempt', async () => {
    const repositoryId = await addRepository(repo.url);
    const { scan } = await trigger(repositoryId);
    await takeOutbox(t.database, EVENT_SUBSCRIPTIONS); // the job is "lost" with the process that died
    const die = (attempt: number) =>
      withTenant(t.database, tenant.tenantId, (db) =>
        db
          .updateTable('scans')
          .set({
            state: 'running',
            attempt,
            started_at: sql`now() - interval '1 hour'`,
            heartbeat_at: sql`now() - interval '1 hour'`,
          })
          .where('id', '=', scan.id)
          .execute(),
      );
    await die(1);
    expect(await sweepStaleScans(t.jobDeps)).toEqual({ requeued: 1, failed: 0 });
    expect((await scanOf(scan.id)).state).toBe('queued');
    expect(await sweepStaleScans(t.jobDeps)).toEqual({ requeued: 0, failed: 0 });
    expect((await t.runJobs()).filter((name) => name === RUN_SCAN.name)).toEqual([RUN_SCAN.name]);
    const recovered = await scanOf(scan.id);
    expect(recovered.state).toBe('completed');
    expect(recovered.attempt).toBe(2);
    expect(
      (await logsOf(scan.id)).some((l) => l.step === 'recovery' && /re-queued/.test(l.message)),
    ).toBe(true);

    const { scan: second } = await trigger(repositoryId);
    await takeOutbox(t.database, EVENT_SUBSCRIPTIONS);
    await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .updateTable('scans')
        .set({
          state: 'running',
          attempt: t.config.scans.maxAttempts,
          heartbeat_at: sql`now() - interval '1 hour'`,
        })
        .where('id', '=', second.id)
        .execute(),
    );
    expect(await sweepStaleScans(t.jobDeps)).toEqual({ requeued: 0, failed: 1 });
    const failed = await scanOf(second.id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/stopped responding/);
    expect(failed.failure_cause).toBe('service');
  });

  it('leaves a fresh running scan alone', async () => {
    const repositoryId = await addRepository(repo.url);
    const { scan } = await trigger(repositoryId);
    await takeOutbox(t.database, EVENT_SUBSCRIPTIONS);
    await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .updateTable('scans')
        .set({ state: 'running', attempt: 1, heartbeat_at: sql`now()` })
        .where('id', '=', scan.id)
        .execute(),
    );
    await sweepStaleScans(t.jobDeps);
    expect((await scanOf(scan.id)).state).toBe('running');
    await withTenant(t.database, tenant.tenantId, (db) =>
      db.updateTable('scans').set({ state: 'cancelled' }).where('id', '=', scan.id).execute(),
    );
  });

  it('removes checkout directories a killed process left behind, and only old ones', async () => {
    const old = join(scratch, 'driftwatch-scan-abandoned');
    const fresh = join(scratch, 'driftwatch-scan-live');
    const other = join(scratch, 'something-else');
    for (const dir of [old, fresh, other]) {
      mkdirSync(join(dir, 'checkout'), { recursive: true });
      writeFileSync(join(dir, 'checkout', 'go.mod'), 'module x\n');
    }
    const dayAgo = new Date(Date.now() - 24 * 3600 * 1000);
    utimesSync(old, dayAgo, dayAgo);
    utimesSync(other, dayAgo, dayAgo);
    expect(await removeAbandonedCheckouts(3600 * 1000, scratch)).toBe(1);
    expect(
      readdirSync(scratch)
        .filter((name) => name.startsWith('driftwatch-scan-') || name === 'something-else')
        .sort(),
    ).toEqual(['driftwatch-scan-live', 'something-else']);
    rmSync(fresh, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  });
});
