import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { REFRESH_AFTER_MATCH, REFRESH_REPOSITORY_ROLLUPS } from '../../src/domains/analytics/jobs';
import { MATCH_DEPENDENCIES } from '../../src/domains/exposures/jobs';
import { DEPENDENCIES_CHANGED, ENRICH } from '../../src/domains/packages/jobs';
import { EVALUATE_REPOSITORY } from '../../src/domains/policies/evaluation/requests';
import { RUN_SCAN } from '../../src/domains/scans/service';
import { OPERATOR_RECORD, ownerConnection } from '../../src/operator/channel';
import { type RunningService, startService } from '../../src/service';
import {
  createGitRepository,
  type GitFixture,
  TEST_REPOSITORY_ROOT,
} from '../support/git-fixtures';
import { apiClient, sleep } from '../support/service-process';

/**
 * Long work in pieces (docs/operations.md#long-work-in-pieces): on the embedded database every
 * request, health check and operator command shares one connection with the background work. A
 * scan of 20,000 dependencies and everything that follows it (storing, reachability, matching,
 * the drift snapshot, policy evaluation, rollups, queueing enrichment) must leave room between
 * its pieces: nothing waits out the acquire timeout (503) meanwhile. Before, one drift snapshot
 * held the connection for 10-13 s at 30,000 dependencies and health answered 503.
 */
const PACKAGES = 20_000;
/** The jobs of a scan's chain, up to enrichment being queued. */
const CHAIN = [
  RUN_SCAN.name,
  MATCH_DEPENDENCIES.name,
  DEPENDENCIES_CHANGED.name,
  EVALUATE_REPOSITORY.name,
  REFRESH_AFTER_MATCH.name,
  REFRESH_REPOSITORY_ROLLUPS.name,
];

/** A package-lock.json (v3) of `count` packages, each depending on one of the first thousand. */
function lockfile(count: number): string {
  const parts = [
    '{"name":"big","lockfileVersion":3,"packages":{"":{"name":"big","dependencies":{"pkg-0":"^1.0.0"}}',
  ];
  for (let i = 0; i < count; i++) {
    const name = `pkg-${i.toString(36)}`;
    const next = `pkg-${((i % 1000) + 1).toString(36)}`;
    parts.push(
      `,"node_modules/${name}":{"version":"1.${i % 100}.${i % 7}","license":"MIT","dependencies":{"${next}":"^1.0.0"}}`,
    );
  }
  parts.push('}}');
  return parts.join('');
}

describe.skipIf(process.env.TEST_DATABASE_URL)('long work in pieces (embedded)', () => {
  let service: RunningService;
  let dataDir: string;
  let repo: GitFixture;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'driftwatch-pieces-'));
    repo = createGitRepository({ 'package-lock.json': lockfile(PACKAGES) });
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SCAN_ALLOW_FILE_URLS: 'true',
      SCAN_FILE_URL_ROOTS: TEST_REPOSITORY_ROOT,
      RATE_LIMIT_TENANT_PER_MINUTE: '1000000',
      RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
      RATE_LIMIT_IP_PER_MINUTE: '1000000',
      // Never the internet: enrichment is queued, its registries are not configured.
      REGISTRY_CLIENT_DEFAULTS: 'false',
      OSV_FEED_URL: 'off',
      DATABASE_ACQUIRE_TIMEOUT_MS: '2000',
    });
    service = await startService(config, 'all');
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    repo?.remove();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Jobs of the chain still waiting or running (pg-boss's table, read by the test). */
  async function chainJobs(): Promise<number> {
    const result = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pgboss.job
       WHERE state IN ('created', 'retry', 'active') AND name = ANY(${CHAIN})`.execute(
      service.database.jobs.system,
    );
    return result.rows[0]?.n ?? -1;
  }

  async function snapshotCount(scanId: string): Promise<number> {
    const row = await service.database.jobs.system
      .selectFrom('repository_drift')
      .select('dependency_count')
      .where('scan_id', '=', scanId)
      .executeTakeFirst();
    return row?.dependency_count ?? 0;
  }

  it('answers health, tenant reads and operator commands throughout a large scan', async () => {
    const token = service.bootstrap?.ownerToken as string;
    const base = service.address as string;
    const call = apiClient(base, token);
    // The record the CLI reads (this process owns the directory, so findOwner does not apply).
    const record = JSON.parse(readFileSync(join(dataDir, OPERATOR_RECORD), 'utf8'));
    const owner = ownerConnection(record.pid, record.socket);
    const imported = await call('POST', '/api/v1/repositories/import', {
      repositories: [{ url: repo.url }],
    });
    const repositoryId = imported.body.items[0].repositoryId;
    const queued = await call('POST', `/api/v1/repositories/${repositoryId}/scan`);
    expect(queued.status).toBe(202);
    const scanId: string = queued.body.scanId;

    let done = false;
    const failures: string[] = [];
    const started = Date.now();
    const at = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
    const requests = async (path: string, headers: Record<string, string>) => {
      while (!done) {
        const response = await fetch(`${base}${path}`, { headers });
        await response.arrayBuffer();
        if (response.status !== 200) failures.push(`${at()} ${path} ${response.status}`);
        await sleep(100);
      }
    };
    const operator = async () => {
      while (!done) {
        const before = Date.now();
        const status = await owner.call('status', {}).catch((error: Error) => error);
        // Patient: it waits its turn rather than failing, but never for long.
        if (status instanceof Error) failures.push(`${at()} admin status: ${status.message}`);
        else if (Date.now() - before > 4000)
          failures.push(`${at()} admin status took ${Date.now() - before} ms`);
        await sleep(250);
      }
    };
    const load = Promise.all([
      requests('/api/v1/health', {}),
      requests('/api/v1/repositories', { authorization: `Bearer ${token}` }),
      operator(),
    ]);
    try {
      // Until the chain has run and enrichment is queued (its chunks then run on their own).
      const deadline = Date.now() + 240_000;
      for (;;) {
        const state = (await call('GET', `/api/v1/scans/${scanId}`)).body.state;
        if (state === 'failed') throw new Error('the scan failed');
        const settled =
          state === 'completed' &&
          (await snapshotCount(scanId)) >= PACKAGES &&
          (await chainJobs()) === 0;
        if (settled || Date.now() > deadline) break;
        await sleep(1000);
      }
      // A few enrichment chunks and the drift snapshots they queue run under the same watch.
      await sleep(5000);
    } finally {
      done = true;
      await load;
    }
    expect(await snapshotCount(scanId)).toBeGreaterThanOrEqual(PACKAGES);
    expect(await chainJobs()).toBe(0);
    const enrichment = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${ENRICH.name}`.execute(
      service.database.jobs.system,
    );
    expect(enrichment.rows[0]?.n).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  }, 300_000);
});
