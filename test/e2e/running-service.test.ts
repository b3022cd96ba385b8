import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { type RunningService, startService } from '../../src/service';
import {
  createGitRepository,
  type GitFixture,
  POLYGLOT_FILES,
  TEST_REPOSITORY_ROOT,
} from '../support/git-fixtures';

/**
 * The running service as `driftwatch serve` starts it (embedded database in a data directory,
 * API and worker in one process, pg-boss, the outbox relay): import, scan and wait for the
 * real worker to finish — no inline job running. This is the path a new user takes.
 */
describe('a running service scans a repository end to end', () => {
  let service: RunningService;
  let dataDir: string;
  let repo: GitFixture;
  let token: string;
  let base: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'driftwatch-service-'));
    repo = createGitRepository(POLYGLOT_FILES);
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SCAN_HEARTBEAT_SECONDS: '1',
      SCAN_FILE_URL_ROOTS: TEST_REPOSITORY_ROOT,
    });
    service = await startService(config, 'all');
    token = service.bootstrap?.ownerToken as string;
    base = service.address as string;
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    repo?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: JSON.parse(await response.text()) };
  };

  it('imports, queues, and the worker completes the scan', async () => {
    expect(service.database.engine).toBe('embedded');
    const imported = await call('POST', '/api/v1/repositories/import', {
      repositories: [{ url: repo.url }],
    });
    expect(imported.status).toBe(200);
    const repositoryId = imported.body.items[0].repositoryId;
    const queued = await call('POST', `/api/v1/repositories/${repositoryId}/scan`);
    expect(queued.status).toBe(202);
    // Wait for the worker (pg-boss polls every 2 s); the test's own timeout bounds the wait.
    let scan = queued.body;
    while (scan.state === 'queued' || scan.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 250));
      scan = (await call('GET', `/api/v1/scans/${scan.scanId}`)).body;
    }
    expect(scan).toMatchObject({ state: 'completed', dependencyCount: 7, attempt: 1 });
    const deps = await call('GET', `/api/v1/repositories/${repositoryId}/dependencies`);
    expect(deps.body.totalEstimate).toBe(7);
  }, 60_000);
});
