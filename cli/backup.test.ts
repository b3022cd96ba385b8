import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  apiClient,
  createScratchDatabase,
  prepareServiceDatabase,
  randomMasterKey,
  type ServiceDatabase,
  type ServiceProcess,
  serviceEnv,
  startServiceProcess,
} from '../test/support/service-process';

/**
 * `driftwatch admin backup` of a running service under load, and `admin restore` into a new
 * data directory (embedded) or a new database (PostgreSQL), as an operator runs them
 * (docs/scaling.md#backups); the round trip of every table is src/operator/backup.test.ts.
 */
const CLI = fileURLToPath(new URL('./driftwatch.cjs', import.meta.url));
const serverUrl = process.env.TEST_DATABASE_URL;

async function driftwatch(args: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env,
      cwd: tmpdir(),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function stop(service: ServiceProcess | undefined): Promise<void> {
  if (!service || service.child.exitCode !== null) return;
  service.child.kill('SIGTERM');
  await service.exited;
}

const work = mkdtempSync(join(tmpdir(), 'dw-cli-backup-'));
let prepared: ServiceDatabase;
let env: NodeJS.ProcessEnv;
let service: ServiceProcess;
let restoredService: ServiceProcess | undefined;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  prepared = await prepareServiceDatabase(serverUrl, 'Backup');
  env = serviceEnv(prepared.env);
  service = await startServiceProcess(env);
}, 180_000);

afterAll(async () => {
  await stop(service);
  await stop(restoredService);
  await prepared?.remove();
  for (const cleanup of cleanups) await cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe(`admin backup and restore (${serverUrl ? 'PostgreSQL' : 'embedded'})`, () => {
  test('backs up while requests run, restores only with the key, and the copy serves', async () => {
    const token = prepared.token ?? service.bootstrapToken ?? '';
    const call = apiClient(service.base, token);
    const names = ['ci-1', 'ci-2', 'ci-3'];
    for (const name of names) {
      const created = await call('POST', '/api/v1/api-tokens', {
        name,
        roleScopeJson: null,
        expiresAtUtc: null,
      });
      expect(created.status).toBe(201);
    }
    // Requests keep running through the backup. On the embedded database the copy holds the
    // one session for a moment: a request that waits past the acquire timeout gets the
    // retryable 503 (Retry-After), never another failure.
    let loading = true;
    const statuses: number[] = [];
    const load = (async () => {
      while (loading) statuses.push((await call('GET', '/api/v1/api-tokens')).status);
    })();
    const file = join(work, 'service.dwbackup');
    const backup = await driftwatch(['admin', 'backup', file], env);
    loading = false;
    await load;
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toContain(
      serverUrl
        ? 'PostgreSQL (pg_dump)'
        : `(through the running service, pid ${service.child.pid})`,
    );
    expect(backup.stdout).toMatch(/master key of fingerprint [0-9a-f]{16}/);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    if (serverUrl) expect(statuses.filter((status) => status !== 200)).toEqual([]);
    else expect(backup.stdout).toMatch(/held the database for \d+ ms/);

    const key =
      env.DRIFTWATCH_MASTER_KEY ??
      readFileSync(join(env.DATA_DIR ?? '', 'master.key'), 'utf8').trim();
    const dataDir = mkdtempSync(join(work, 'restored-'));
    const target: Record<string, string> = { DATA_DIR: dataDir };
    if (serverUrl) {
      const empty = await createScratchDatabase(serverUrl);
      cleanups.push(empty.drop);
      target.DATABASE_URL = empty.url;
    }
    const noKey = await driftwatch(['admin', 'restore', file], serviceEnv(target));
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('driftwatch: No master key');
    const wrongKey = await driftwatch(
      ['admin', 'restore', file],
      serviceEnv({ ...target, DRIFTWATCH_MASTER_KEY: randomMasterKey() }),
    );
    expect(wrongKey.code).toBe(2);
    expect(wrongKey.stderr).toContain('driftwatch: Wrong master key');
    const restoredEnv = serviceEnv({ ...target, DRIFTWATCH_MASTER_KEY: key });
    const restored = await driftwatch(['admin', 'restore', file], restoredEnv);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('Restored the');

    await stop(service);
    restoredService = await startServiceProcess(restoredEnv);
    const listed = await apiClient(restoredService.base, token)('GET', '/api/v1/api-tokens');
    expect(listed.status).toBe(200);
    const listedNames = listed.body.items.map((item: { name: string }) => item.name);
    for (const name of names) expect(listedNames).toContain(name);
  }, 300_000);

  test('a PostgreSQL backup without pg_dump on PATH says so and writes nothing', async () => {
    const file = join(work, 'no-tools.dwbackup');
    const result = await driftwatch(
      ['admin', 'backup', file],
      serviceEnv({
        PATH: mkdtempSync(join(work, 'empty-path-')),
        DATA_DIR: mkdtempSync(join(work, 'data-')),
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        DRIFTWATCH_MASTER_KEY: randomMasterKey(),
      }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pg_dump and pg_restore not found on PATH');
    expect(() => readFileSync(file)).toThrow();
  }, 60_000);
});
