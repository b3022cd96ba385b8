import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGitRepository,
  type GitFixture,
  POLYGLOT_FILES,
  TEST_REPOSITORY_ROOT,
} from '../support/git-fixtures';
import {
  apiClient,
  type ServiceProcess,
  serviceEnv,
  startServiceProcess,
  waitForScan,
} from '../support/service-process';

const ROOT = join(import.meta.dirname, '..', '..');
const compiled = createRequire(import.meta.url)('../../cli/compiled.cjs') as {
  ensureBuilt: () => Promise<string>;
  isFresh: (manifest: unknown) => boolean;
  readManifest: () => { inputs: [string, number, number][] } | null;
};

/**
 * The production build (docs/build.md): `driftwatch serve` runs dist/, not the TypeScript
 * sources. The compiled service migrates from the SQL files copied into dist/ and extracts
 * dependencies in the worker thread built beside it.
 */
describe('the compiled service', () => {
  let service: ServiceProcess | null = null;
  let dataDir: string;
  let repo: GitFixture;

  beforeAll(async () => {
    await compiled.ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'driftwatch-compiled-'));
    repo = createGitRepository(POLYGLOT_FILES);
  }, 120_000);
  afterAll(async () => {
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    repo?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is built from the current sources, with every migration and the worker entry', () => {
    const manifest = compiled.readManifest();
    expect(compiled.isFresh(manifest)).toBe(true);
    const paths = manifest?.inputs.map(([path]) => path) ?? [];
    expect(paths).toContain('src/domains/scans/dependencies/extract-worker.ts');
    const sql = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.sql'));
    expect(sql(join(ROOT, 'dist/src/db/migrations'))).toEqual(sql(join(ROOT, 'src/db/migrations')));
    expect(existsSync(join(ROOT, 'dist/src/domains/scans/dependencies/extract-worker.js'))).toBe(
      true,
    );
    // A changed input makes the build stale.
    const [first, ...rest] = manifest?.inputs ?? [];
    expect(compiled.isFresh({ ...manifest, inputs: [[first?.[0], 1, 1], ...rest] })).toBe(false);
  });

  it('bundles the service as ASCII text', () => {
    // One character beyond ASCII makes V8 hold the whole 1.7 MB source at two bytes a character
    // (docs/build.md, "Memory of the embedded database"): \u escapes in strings, ASCII elsewhere.
    const bundle = readFileSync(join(ROOT, 'dist/cli/main.js'));
    const first = bundle.findIndex((byte) => byte > 0x7f);
    const lines = bundle.toString('latin1').split('\n');
    const offending =
      first === -1 ? -1 : bundle.subarray(0, first).toString('latin1').split('\n').length - 1;
    expect(offending === -1 ? null : `dist/cli/main.js:${offending + 1}: ${lines[offending]}`).toBe(
      null,
    );
  });

  it('starts from dist/ and scans a repository through the compiled worker', async () => {
    service = await startServiceProcess(
      serviceEnv({ DATA_DIR: dataDir, SCAN_FILE_URL_ROOTS: TEST_REPOSITORY_ROOT }),
    );
    const cmdline = readFileSync(`/proc/${service.child.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain('tsx');
    const call = apiClient(service.base, service.bootstrapToken as string);
    const ready = await fetch(`${service.base}/api/v1/ready`);
    expect(ready.status).toBe(200);
    const imported = await call('POST', '/api/v1/repositories/import', {
      repositories: [{ url: repo.url }],
    });
    expect(imported.status).toBe(200);
    const repositoryId = imported.body.items[0].repositoryId;
    const queued = await call('POST', `/api/v1/repositories/${repositoryId}/scan`);
    expect(queued.status).toBe(202);
    const scan = await waitForScan(call, queued.body.scanId);
    expect(scan).toMatchObject({ state: 'completed', dependencyCount: 7 });
    expect(service.output()).not.toMatch(/\.ts:\d+/);
  }, 180_000);
});
