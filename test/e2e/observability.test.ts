import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createTenantWithOwner } from '../../src/domains/tenants/service';
import { type RunningService, startService } from '../../src/service';
import { eventually } from '../support/eventually';
import {
  createGitRepository,
  type GitFixture,
  POLYGLOT_FILES,
  TEST_REPOSITORY_ROOT,
} from '../support/git-fixtures';
import {
  type ApiCall,
  apiClient,
  createScratchDatabase,
  randomMasterKey,
  waitForScan,
} from '../support/service-process';

/**
 * The running service as an operator sees it (docs/operations.md#metrics, #readiness): ready once
 * its workers run, a scan done by the real worker shows on the metrics port with the real pg-boss
 * queues and pools, and readiness turns 503 the moment the stop begins.
 */
const OPERATOR_TOKEN = 'operator-token-for-the-e2e-test';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('metrics and readiness of a running service', () => {
  let service: RunningService;
  let dataDir: string;
  let repo: GitFixture;
  let token: string;
  let base: string;
  let call: ApiCall;
  let drop = async () => {};

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'driftwatch-observed-'));
    repo = createGitRepository(POLYGLOT_FILES);
    let databaseUrl: string | undefined;
    if (process.env.TEST_DATABASE_URL) {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL);
      databaseUrl = scratch.url;
      drop = scratch.drop;
    }
    const config = loadConfig({
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DRIFTWATCH_MASTER_KEY: randomMasterKey(),
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: String(await freePort()),
      DRIFTWATCH_OPERATOR_TOKEN: OPERATOR_TOKEN,
      LOG_LEVEL: 'silent',
      SCAN_ALLOW_FILE_URLS: 'true',
      SCAN_FILE_URL_ROOTS: TEST_REPOSITORY_ROOT,
    });
    service = await startService(config, 'all');
    token = (await createTenantWithOwner(service.database, { name: 'Observed', plan: 'team' }))
      .ownerToken;
    base = service.address as string;
    call = apiClient(base, token);
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await drop();
    repo?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ready with its workers started', async () => {
    const ready = await fetch(`${base}/api/v1/ready`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { checks: unknown };
    expect(body.checks).toEqual({
      database: 'ok',
      migrations: 'ok',
      workers: 'started',
      stopping: false,
    });
  });

  it('shows a scan run by the worker on the metrics port and to the operator token', async () => {
    const imported = await call('POST', '/api/v1/repositories/import', {
      repositories: [{ url: repo.url }],
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const repositoryId = imported.body.items[0].repositoryId;
    const queued = await call('POST', `/api/v1/repositories/${repositoryId}/scan`);
    expect(queued.status).toBe(202);
    const scan = await waitForScan(call, queued.body.scanId);
    expect(scan.state).toBe('completed');
    // The job's handler returns after its scan is stored; give the observation a moment.
    const text = await eventually(
      async () => (await fetch(`${service.metricsAddress}/metrics`)).text(),
      {
        what: 'the scan duration metric',
        intervalMs: 250,
        until: (body) => body.includes('driftwatch_scan_duration_seconds_count{'),
      },
    );
    expect(text).toMatch(/^driftwatch_scan_duration_seconds_count\{outcome="completed"\} 1$/m);
    expect(text).toMatch(
      /^driftwatch_http_requests_total\{method="POST",route="\/api\/v1\/repositories\/:repositoryId\/scan",status="202"\} 1$/m,
    );
    expect(text).toMatch(/^driftwatch_job_queue_read_ok 1$/m);
    expect(text).toMatch(/^driftwatch_job_queue_waiting\{queue="scans\.run"\} \d+$/m);
    expect(text).toMatch(/^driftwatch_db_pool_connections\{pool="main"\} \d+$/m);
    if (service.database.engine === 'postgres') {
      expect(text).toMatch(/^driftwatch_db_pool_connections\{pool="jobs"\} \d+$/m);
      expect(text).toMatch(/^driftwatch_db_pool_connections\{pool="read"\} \d+$/m);
    }
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);

    const operator = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(operator.status).toBe(200);
    expect(await operator.text()).toContain('driftwatch_scan_duration_seconds_count');
    const tenant = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(tenant.status).toBe(401);
  }, 90_000);

  it('answers 503 to readiness from the moment the stop begins', async () => {
    const app = service.app;
    if (!app) throw new Error('the API role has an app');
    const stopped = service.stop();
    const ready = await app.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().detail).toContain('stopping');
    await stopped;
  }, 60_000);
});
