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
import { type ApiCall, apiClient, waitForScan } from '../support/service-process';

/**
 * The running service as `driftwatch serve` starts it (embedded database in a data directory,
 * API and worker in one process, pg-boss, the outbox relay): import, scan and wait for the
 * real worker to finish — no inline job running. This is the path a new user takes.
 */
describe('a running service scans a repository end to end', () => {
  let service: RunningService;
  let dataDir: string;
  let repo: GitFixture;
  let call: ApiCall;

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
    call = apiClient(service.address as string, service.bootstrap?.ownerToken as string);
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    repo?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports, queues, and the worker completes the scan', async () => {
    expect(service.database.engine).toBe('embedded');
    const imported = await call('POST', '/api/v1/repositories/import', {
      repositories: [{ url: repo.url }],
    });
    expect(imported.status).toBe(200);
    const repositoryId = imported.body.items[0].repositoryId;
    const queued = await call('POST', `/api/v1/repositories/${repositoryId}/scan`);
    expect(queued.status).toBe(202);
    const scan = await waitForScan(call, queued.body.scanId);
    expect(scan).toMatchObject({ state: 'completed', dependencyCount: 7, attempt: 1 });
    const deps = await call('GET', `/api/v1/repositories/${repositoryId}/dependencies`);
    // The list also names the projects themselves (scope self), which the scan does not count.
    const items: { name: string; scope: string }[] = deps.body.items;
    expect(items.filter((d) => d.scope !== 'self')).toHaveLength(7);
    expect(deps.body.totalEstimate).toBe(items.length);
  }, 60_000);
});
