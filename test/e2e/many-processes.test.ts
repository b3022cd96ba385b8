import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection';
import { createTenantWithOwner } from '../../src/domains/tenants/service';
import { eventually } from '../support/eventually';
import {
  createGitRepository,
  type GitFixture,
  POLYGLOT_FILES,
  TEST_REPOSITORY_ROOT,
} from '../support/git-fixtures';
import {
  ancestorAmong,
  type Call,
  client,
  field,
  firstItem,
  gitHangingOn,
  redisReachable,
} from '../support/process-fleet';
import { jsonl, osvRecord } from '../support/scenarios/advisory-records';
import {
  CRASH_SIGNS,
  prepareServiceDatabase,
  type ServiceDatabase,
  type ServiceProcess,
  serviceEnv,
  sleep,
  startServiceProcess,
} from '../support/service-process';
import {
  startWebhookReceiver,
  verifyDelivery,
  type WebhookReceiver,
} from '../support/webhook-receiver';

/**
 * Many processes, one database (docs/scaling.md, "Process model and pool sizes"): two
 * `serve --role api` and two `serve --role worker` processes of the compiled build on one fresh
 * PostgreSQL database with Redis. Work is driven through both API processes at once; then the
 * database is read directly: every scan ran once, no exposure or violation twice, every webhook
 * arrived, one audit entry per write, and a token's rate limit counted across both processes.
 * Then kill -9 of the worker running a scan: the other worker finishes it. PostgreSQL tier only.
 */
const serverUrl = process.env.TEST_DATABASE_URL ?? '';
const onPostgres = /^postgres(ql)?:\/\//.test(serverUrl);
const REDIS_URL = 'redis://127.0.0.1:6379';
const REPOSITORIES = 6;
const WEBHOOK_TESTS = 8;
const HEARTBEAT_SECONDS = 1;
const STALE_AFTER_SECONDS = 5;
/** Readiness fails this long before the drain: above the emulated balancer's 50 ms probes. */
const SHUTDOWN_DELAY_MS = 1000;
const CLI = fileURLToPath(new URL('../../cli/driftwatch.cjs', import.meta.url));

const redisUp = onPostgres && (await redisReachable());
const skipReason = !onPostgres
  ? 'TEST_DATABASE_URL is not a PostgreSQL URL'
  : !redisUp
    ? 'Redis at 127.0.0.1:6379 is not reachable'
    : null;
if (skipReason) console.log(`many-processes: skipped (${skipReason})`);

describe.skipIf(skipReason !== null)('two API and two worker processes on PostgreSQL', () => {
  let database: ServiceDatabase;
  let sql: pg.Client;
  let receiver: WebhookReceiver;
  let hangingGit: ReturnType<typeof gitHangingOn>;
  const repos: GitFixture[] = [];
  let victim: GitFixture;
  const dataDirs: string[] = [];
  const api: ServiceProcess[] = [];
  const workers: ServiceProcess[] = [];
  const writes: Call[] = [];
  let freeToken = '';
  let env: NodeJS.ProcessEnv;

  const start = async (role: 'api' | 'worker') => {
    const dataDir = mkdtempSync(join(tmpdir(), `driftwatch-${role}-`));
    dataDirs.push(dataDir);
    return startServiceProcess({ ...env, DATA_DIR: dataDir }, ['--role', role]);
  };

  beforeAll(async () => {
    await (
      createRequire(import.meta.url)('../../cli/compiled.cjs') as {
        ensureBuilt: () => Promise<string>;
      }
    ).ensureBuilt();
    database = await prepareServiceDatabase(serverUrl, 'Many processes');
    const url = database.env.DATABASE_URL ?? '';
    const opened = await openDatabase({ url, dataDir: null, poolSize: 1 });
    freeToken = (await createTenantWithOwner(opened, { name: 'Limited', plan: 'free' })).ownerToken;
    await opened.close();
    sql = new pg.Client({ connectionString: url });
    await sql.connect();
    receiver = await startWebhookReceiver();
    for (let n = 0; n < REPOSITORIES; n++) repos.push(createGitRepository(POLYGLOT_FILES));
    victim = createGitRepository(POLYGLOT_FILES);
    hangingGit = gitHangingOn(basename(victim.directory));
    env = serviceEnv({
      ...database.env,
      PATH: `${hangingGit.binDir}:${process.env.PATH}`,
      REDIS_URL,
      SCAN_ALLOW_FILE_URLS: 'true',
      SCAN_FILE_URL_ROOTS: TEST_REPOSITORY_ROOT,
      SCAN_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
      SCAN_STALE_AFTER_SECONDS: String(STALE_AFTER_SECONDS),
      OUTBOUND_ALLOW_WEBHOOK_CIDRS: '127.0.0.0/8',
      WEBHOOK_CA_FILE: receiver.certificate.certFile,
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_BASE_MS: '300',
      WEBHOOK_RETRY_MAX_DELAY_MS: '1000',
      WEBHOOK_POLL_MS: '100',
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
    });
    const started = await Promise.all([
      start('api'),
      start('api'),
      start('worker'),
      start('worker'),
    ]);
    api.push(started[0], started[1]);
    workers.push(started[2], started[3]);
  }, 150_000);

  afterAll(async () => {
    for (const service of [...api, ...workers]) {
      if (service.child.exitCode === null && service.child.signalCode === null) {
        service.child.kill('SIGKILL');
      }
      await service.exited;
    }
    const hung = hangingGit?.hung();
    if (hung) spawnSync('kill', ['-9', String(hung)]);
    hangingGit?.remove();
    for (const repo of [...repos, victim]) repo?.remove();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    await receiver?.close();
    await sql?.end();
    await database?.remove();
  }, 60_000);

  /** Calls alternate between the two API processes. */
  let turn = 0;
  const next = () => api[turn++ % 2]?.base ?? '';
  const call = (method: string, path: string, body?: unknown) =>
    client(next, database.token ?? '', writes)(method, path, body);

  const waitRows = async (
    what: string,
    query: string,
    done: (rows: pg.QueryResultRow[]) => boolean,
  ): Promise<pg.QueryResultRow[]> =>
    eventually<pg.QueryResultRow[]>(
      async () => {
        const { rows } = await sql.query(query);
        return rows;
      },
      {
        what,
        until: done,
        timeoutMs: 90_000,
        intervalMs: 200,
        context: () => [...api, ...workers].map((s) => s.output()).join('\n---\n'),
      },
    );

  /**
   * Each repository's dependency rows come from one scan; every repository holds the same
   * lockfiles, so every set has the same size (a run applied twice would double it).
   */
  let rowsPerRepository = 0;
  const expectOneSetOfDependencies = async (repositoryIds: string[]) => {
    const { rows } = await sql.query(
      `SELECT repository_id, count(DISTINCT scan_id)::int AS scans, count(*)::int AS n
         FROM repository_dependency_rows WHERE repository_id = ANY($1) GROUP BY repository_id`,
      [repositoryIds],
    );
    expect(rows).toHaveLength(repositoryIds.length);
    rowsPerRepository ||= rows[0]?.n;
    for (const set of rows) expect(set).toMatchObject({ scans: 1, n: rowsPerRepository });
  };

  it('runs every piece of work once through both API processes', async () => {
    expect(api.every((s) => s.base)).toBe(true);
    // Imports and scans, concurrently, alternating between the API processes.
    const imports = await Promise.all(
      repos.map((repo) =>
        call('POST', '/api/v1/repositories/import', { repositories: [{ url: repo.url }] }),
      ),
    );
    expect(imports.map((i) => i.status)).toEqual(repos.map(() => 200));
    const repositoryIds = imports.map((i) => String(field(firstItem(i.body), 'repositoryId')));
    const scans = await Promise.all(
      repositoryIds.map((id) => call('POST', `/api/v1/repositories/${id}/scan`)),
    );
    expect(scans.map((s) => s.status)).toEqual(repos.map(() => 202));
    const scanRows = await waitRows(
      'every scan to finish',
      'SELECT id, repository_id, state, attempt, dependency_count FROM scans',
      (rows) =>
        rows.length > 0 && rows.every((r) => r.state === 'completed' || r.state === 'failed'),
    );
    console.log(
      `scans: ${JSON.stringify(scanRows.map((r) => [r.state, r.attempt, r.dependency_count]))}`,
    );
    // Exactly once: one run each (attempt 1), completed, and one set of dependency rows each.
    for (const row of scanRows) expect(row).toMatchObject({ state: 'completed', attempt: 1 });
    expect(new Set(scanRows.map((r) => r.repository_id)).size).toBe(REPOSITORIES);
    await expectOneSetOfDependencies(scanRows.map((r) => r.repository_id));

    // An advisory import (the admin command on the same database): the workers re-match.
    const advisories = join(dataDirs[0] ?? tmpdir(), 'advisories.jsonl');
    writeFileSync(
      advisories,
      jsonl([
        osvRecord({
          id: 'GHSA-many-proc-0001',
          severity: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
          affected: [
            {
              ecosystem: 'npm',
              name: 'body-parser',
              ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.20.3' }] }],
            },
          ],
        }),
      ]),
    );
    const imported = spawnSync(process.execPath, [CLI, 'admin', 'import-osv', advisories], {
      env: { ...env, DATA_DIR: dataDirs[0] },
      encoding: 'utf8',
    });
    expect(imported.status, imported.stdout + imported.stderr).toBe(0);
    const exposures = await waitRows(
      'an exposure in every repository',
      'SELECT repository_id, package_id, version, vulnerability_id FROM vulnerability_exposures',
      (rows) => new Set(rows.map((r) => r.repository_id)).size === REPOSITORIES,
    );

    // A policy through each API process; each is evaluated by a worker.
    const policies = await Promise.all(
      ['Vulnerable A', 'Vulnerable B'].map((name) =>
        call('POST', '/api/v1/policies', {
          name,
          condition: 'vulnerabilities.count > 0',
          severity: 'high',
          action: 'warn',
        }),
      ),
    );
    expect(policies.map((p) => p.status)).toEqual([201, 201]);
    const violations = await waitRows(
      'violations of both policies in every repository',
      'SELECT policy_id, repository_id, package_id, version FROM policy_violations',
      (rows) =>
        new Set(rows.map((r) => `${r.policy_id}/${r.repository_id}`)).size === 2 * REPOSITORIES,
    );
    await sleep(2000); // late duplicates would show up now
    const dupes = async (table: string, key: string) =>
      (await sql.query(`SELECT ${key}, count(*) FROM ${table} GROUP BY ${key} HAVING count(*) > 1`))
        .rows.length;
    expect(
      await dupes(
        'vulnerability_exposures',
        'repository_id, package_id, version, vulnerability_id',
      ),
    ).toBe(0);
    expect(await dupes('policy_violations', 'policy_id, repository_id, package_id, version')).toBe(
      0,
    );

    // Webhook deliveries: the first two answers fail, so some deliveries are retried.
    const integration = await call('POST', '/api/v1/integrations/webhooks', {
      name: 'receiver',
      url: receiver.url,
    });
    expect(integration.status).toBe(201);
    const integrationId = String(field(integration.body, 'integrationId'));
    const secret = String(field(integration.body, 'secret'));
    receiver.answers = [500, 500];
    const tests = await Promise.all(
      Array.from({ length: WEBHOOK_TESTS }, () =>
        call('POST', `/api/v1/integrations/${integrationId}/test`),
      ),
    );
    expect(tests.map((t) => t.status)).toEqual(tests.map(() => 202));
    const queued = tests.map((t) => String(field(t.body, 'deliveryId'))).sort();
    await waitRows(
      'every delivery to succeed',
      `SELECT id, status FROM outbound_deliveries WHERE id::text = ANY('{${queued.join(',')}}')`,
      (rows) => rows.length === WEBHOOK_TESTS && rows.every((r) => r.status === 'succeeded'),
    );
    const byId = new Map<string, number[]>();
    for (const request of receiver.received) {
      const envelope = verifyDelivery(secret, request);
      if (envelope.type !== 'integration.test') continue;
      const id = request.headers['webhook-id'] ?? '';
      byId.set(id, [...(byId.get(id) ?? []), request.answered]);
    }
    expect([...byId.keys()].sort()).toEqual(queued);
    for (const answers of byId.values()) expect(answers.at(-1)).toBe(200);
    const duplicates = [...byId.values()].filter((a) => a.length > 1).length;

    // One audit entry per write request, by correlation id.
    const audit = await sql.query('SELECT correlation_id, action, status_code FROM audit_log');
    const audited = audit.rows.map((r) => String(r.correlation_id)).sort();
    const made = writes
      .filter((w) => w.status < 400)
      .map((w) => w.correlationId)
      .sort();
    expect(audited).toEqual(made);

    // A token's limit is one count across both API processes (trial/free plan: 300 a minute).
    const limited = client(next, freeToken, []);
    const statuses: Array<{ status: number; process: number }> = [];
    for (let n = 0; n < 320; n++) {
      statuses.push({
        status: (await limited('GET', '/api/v1/repositories')).status,
        process: n % 2,
      });
    }
    const allowed = statuses.filter((s) => s.status === 200).length;
    const refusedBy = new Set(statuses.filter((s) => s.status === 429).map((s) => s.process));
    expect(allowed).toBe(300);
    expect(statuses.findIndex((s) => s.status === 429)).toBe(300);
    expect([...refusedBy].sort()).toEqual([0, 1]);

    // Connections the four processes hold now (pools open lazily, idle ones close after a while).
    const connections = await sql.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    console.log(
      `many processes: ${connections.rows[0]?.n} connections from 4 processes, ${scanRows.length} scans (attempt 1 each), ${exposures.length} exposures, ` +
        `${violations.length} violations, ${receiver.received.length} webhook requests for ` +
        `${WEBHOOK_TESTS} deliveries (${duplicates} retried under the same id), ` +
        `${audited.length} audit entries for ${made.length} writes, ` +
        `rate limit: ${allowed} allowed then 429 from both processes`,
    );
  }, 150_000);

  it('finishes a scan on the other worker after kill -9 of the one running it', async () => {
    const imported = await call('POST', '/api/v1/repositories/import', {
      repositories: [{ url: victim.url }],
    });
    expect(imported.status).toBe(200);
    const repositoryId = String(field(firstItem(imported.body), 'repositoryId'));
    const queued = await call('POST', `/api/v1/repositories/${repositoryId}/scan`);
    expect(queued.status).toBe(202);
    const scanId = String(field(queued.body, 'scanId'));
    // The clone hangs in whichever worker claimed the scan; let it heartbeat once, then kill it.
    const hung = await eventually(() => hangingGit.hung(), {
      what: 'the checkout to start',
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    const pids = workers.map((w) => w.child.pid ?? 0);
    const owner = ancestorAmong(Number(hung), pids);
    const doomed = workers.find((w) => w.child.pid === owner);
    const survivor = workers.find((w) => w.child.pid !== owner);
    if (!doomed || !survivor) throw new Error(`no worker owns git ${hung} (workers ${pids})`);
    await sleep(HEARTBEAT_SECONDS * 1000 + 500);
    const before = await sql.query('SELECT state, attempt FROM scans WHERE id = $1', [scanId]);
    expect(before.rows[0]).toMatchObject({ state: 'running', attempt: 1 });
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const killedAt = Date.now();
    let requeuedAfterMs: number | null = null;
    const [scan] = await eventually(
      async () => {
        const { rows } = await sql.query(
          'SELECT id, repository_id, state, attempt, dependency_count FROM scans WHERE id = $1',
          [scanId],
        );
        const row = rows[0];
        if (requeuedAfterMs === null && row && (row.state !== 'running' || row.attempt > 1)) {
          requeuedAfterMs = Date.now() - killedAt;
        }
        return rows;
      },
      {
        what: 'the scan to finish',
        until: (rows) => rows[0]?.state === 'completed' || rows[0]?.state === 'failed',
        timeoutMs: 60_000,
        intervalMs: 100,
        context: survivor.output,
      },
    );
    const finishedAfterMs = Date.now() - killedAt;
    expect(scan).toMatchObject({ state: 'completed', attempt: 2 });
    expect(requeuedAfterMs).toBeLessThanOrEqual((STALE_AFTER_SECONDS + HEARTBEAT_SECONDS) * 1000);
    // Nothing twice in effect: one scan of the repository, one set of dependency rows.
    const ofRepository = await sql.query('SELECT id FROM scans WHERE repository_id = $1', [
      repositoryId,
    ]);
    expect(ofRepository.rows).toHaveLength(1);
    await expectOneSetOfDependencies([repositoryId]);
    expect(rowsPerRepository).toBeGreaterThan(0);
    expect(scan?.dependency_count).toBeGreaterThan(0);
    for (const sign of CRASH_SIGNS) expect(survivor.output()).not.toContain(sign);
    console.log(
      `kill -9 of a worker mid-scan: re-queued after ${requeuedAfterMs} ms, completed by the ` +
        `other worker after ${finishedAfterMs} ms (stale after ${STALE_AFTER_SECONDS} s, ` +
        `heartbeat ${HEARTBEAT_SECONDS} s)`,
    );
  }, 120_000);

  it('restarts an API process under load: readiness first, only retryable failures', async () => {
    const [stopping, other] = api;
    if (!stopping || !other) throw new Error('two API processes expected');
    const token = database.token ?? '';
    type Outcome = 'ok' | 'refused' | 'unready' | 'other';
    const tally = (): Record<Outcome, number> => ({ ok: 0, refused: 0, unready: 0, other: 0 });
    const outcomes = [tally(), tally()];
    const others: string[] = [];
    let stopAt = 0;
    let unreadyAt = 0;
    let refusedAt = 0;
    let running = true;
    // The load balancer: probes readiness every 50 ms and sends nothing more once it fails.
    let inRotation = true;
    let inFlightAtStop = 0;
    let inFlight = 0;
    const one = async (base: string, path: string): Promise<Outcome> => {
      inFlight++;
      try {
        const response = await fetch(`${base}${path}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const text = await response.text();
        if (response.ok) return 'ok';
        if (response.status === 503) return 'unready';
        others.push(`${response.status} ${text.slice(0, 200)}`);
        return 'other';
      } catch (error) {
        const code = field(field(error, 'cause'), 'code');
        if (code === 'ECONNREFUSED') return 'refused';
        others.push(`${String(code)} ${String(error)}`);
        return 'other';
      } finally {
        inFlight--;
      }
    };
    const loop = async (n: number) => {
      for (let i = 0; running; i++) {
        const target = inRotation ? (n + i) % 2 : 1;
        const base = api[target]?.base ?? '';
        const outcome = await one(base, i % 2 ? '/api/v1/repositories' : '/api/v1/scans?take=20');
        const bucket = outcomes[target];
        if (bucket) bucket[outcome]++;
        if (target === 0 && outcome === 'refused' && !refusedAt) refusedAt = Date.now();
      }
    };
    // The balancer's probe: any answer but 200, or none, takes the process out.
    const probe = async (): Promise<boolean> => {
      try {
        return (await fetch(`${stopping.base}/api/v1/ready`)).status === 200;
      } catch {
        return false;
      }
    };
    const readiness = async () => {
      while (running) {
        const ready = await probe();
        if (stopAt && !ready && !unreadyAt) unreadyAt = Date.now();
        if (!ready) inRotation = false;
        await sleep(50);
      }
    };
    const loops = [readiness(), ...Array.from({ length: 6 }, (_, n) => loop(n))];
    await sleep(2000);
    const before = { ...outcomes[0] };
    inFlightAtStop = inFlight;
    stopAt = Date.now();
    stopping.child.kill('SIGTERM');
    const exit = await stopping.exited;
    const stoppedAfterMs = Date.now() - stopAt;
    await sleep(1000);
    running = false;
    await Promise.all(loops);
    // The load balancer retries refused connections and 503s (readiness false); nothing else fails.
    expect(others).toEqual([]);
    expect(exit.code).toBe(0);
    expect(unreadyAt).toBeGreaterThan(0);
    expect(unreadyAt).toBeLessThanOrEqual(refusedAt || Number.POSITIVE_INFINITY);
    // Taken out of rotation before its listener closed: no request even needed a retry
    // (with SHUTDOWN_DELAY_MS=0, 2 of 280 were refused here).
    for (const bucket of outcomes)
      expect(bucket).toMatchObject({ refused: 0, unready: 0, other: 0 });
    for (const sign of CRASH_SIGNS) expect(stopping.output()).not.toContain(sign);
    // Its replacement comes up on the same database and is ready: the restart is complete.
    const replacement = await start('api');
    api[0] = replacement;
    const ready = await fetch(`${replacement.base}/api/v1/ready`);
    expect(ready.status).toBe(200);
    console.log(
      `rolling restart: SIGTERM with ${inFlightAtStop} requests in flight; readiness false ` +
        `${unreadyAt - stopAt} ms after it, first refused connection ${refusedAt ? refusedAt - stopAt : 'none'} ms, ` +
        `exit 0 after ${stoppedAfterMs} ms; stopping process ${JSON.stringify(outcomes[0])} ` +
        `(${before.ok} ok before the signal), other process ${JSON.stringify(outcomes[1])}`,
    );
  }, 60_000);

  it('redelivers a webhook cut short by kill -9 of its worker, under the same id', async () => {
    // The scan test killed one worker: a replacement first, so two are up again.
    workers.push(await start('worker'));
    const live = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    expect(live).toHaveLength(2);
    const integration = await call('POST', '/api/v1/integrations/webhooks', {
      name: 'kill target',
      url: receiver.url,
    });
    expect(integration.status).toBe(201);
    const integrationId = String(field(integration.body, 'integrationId'));
    const seen = receiver.received.length;
    // Held below the 2 s request timeout: the kill lands while the request is out.
    receiver.answerDelayMs = 1500;
    const queued = await call('POST', `/api/v1/integrations/${integrationId}/test`);
    expect(queued.status).toBe(202);
    const deliveryId = String(field(queued.body, 'deliveryId'));
    await eventually(() => receiver.received.length > seen, {
      what: 'the delivery to arrive',
      timeoutMs: 30_000,
      intervalMs: 20,
    });
    // The worker holding a connection to the receiver is the one sending it.
    const sockets = execFileSync('ss', ['-tnpH', 'dst', `127.0.0.1:${receiver.port}`], {
      encoding: 'utf8',
    });
    const pids = [...sockets.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
    const doomed = live.find((w) => pids.includes(w.child.pid ?? 0));
    if (!doomed) throw new Error(`no worker holds a connection to the receiver:\n${sockets}`);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const killedAt = Date.now();
    receiver.answerDelayMs = 0;
    const [row] = await waitRows(
      'the delivery to succeed in the other worker',
      `SELECT status, attempt_count FROM outbound_deliveries WHERE id = '${deliveryId}'`,
      (rows) => rows[0]?.status === 'succeeded',
    );
    const redeliveredAfterMs = Date.now() - killedAt;
    const arrivals = receiver.received
      .slice(seen)
      .filter((r) => r.headers['webhook-id'] === deliveryId);
    expect(arrivals.length).toBe(2);
    // Lease: the request timeout plus 30 s (docs/integrations.md#delivery), plus a poll.
    expect(redeliveredAfterMs).toBeLessThanOrEqual(2000 + 30_000 + 5000);
    // Not before the lease ran out: the dead worker's attempt is not raced by a second one.
    expect(redeliveredAfterMs).toBeGreaterThanOrEqual(30_000);
    console.log(
      `kill -9 of a worker mid-delivery: delivered again under the same id ${redeliveredAfterMs} ms ` +
        `after the kill (lease 32 s); ${arrivals.length} arrivals, attempt count ${row?.attempt_count}`,
    );
  }, 90_000);
});
