import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonl, npmRange, osvRecord } from '../test/support/scenarios';
import {
  apiClient,
  type ServiceProcess,
  serviceEnv,
  startServiceProcess,
} from '../test/support/service-process';

const CLI = fileURLToPath(new URL('./driftwatch.cjs', import.meta.url));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `driftwatch <args>` as a user runs it, in `cwd`, with exactly `env`. */
async function driftwatch(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env,
      cwd,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const TOKEN_LINE = /^dw_[0-9A-Za-z]{46}$/m;

describe('driftwatch admin with no service running', () => {
  test('opens the data directory itself, says so, and refuses a bad plan in one line', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dw-cli-'));
    const env = serviceEnv({ DATA_DIR: dataDir });
    try {
      const ok = await driftwatch(
        ['admin', 'create-tenant', '--name', 'Acme', '--plan', 'team'],
        env,
        tmpdir(),
      );
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/Created tenant "Acme" \(team\)/);
      expect(ok.stdout).toMatch(TOKEN_LINE);
      expect(ok.stderr).toContain(
        `Database: the embedded database in ${dataDir} (opened by this command: no service is running)`,
      );
      expect(ok.stderr).toContain(`creating the embedded database in ${dataDir}`);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const bad = await driftwatch(
        ['admin', 'create-tenant', '--name', 'X', '--plan', 'gold'],
        env,
        tmpdir(),
      );
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split('\n')).toEqual([
        'driftwatch: unknown plan "gold"; plans: trial, free, team, business, enterprise (see driftwatch admin --help)',
      ]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('driftwatch admin through a running service', () => {
  let dataDir: string;
  let elsewhere: string;
  let service: ServiceProcess;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dw-cli-owner-'));
    elsewhere = mkdtempSync(join(tmpdir(), 'dw-cli-cwd-'));
    env = serviceEnv({ DATA_DIR: dataDir });
    service = await startServiceProcess(env);
  }, 180_000);
  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  test('create-tenant, import-osv and status go through the owner; without it the command opens the directory', async () => {
    const pid = service.child.pid;
    const through = `Database: the embedded database in ${dataDir} (through the running service, pid ${pid})`;
    const created = await driftwatch(
      ['admin', 'create-tenant', '--name', 'Beta', '--plan', 'free'],
      env,
      elsewhere,
    );
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(through);
    const token = TOKEN_LINE.exec(created.stdout)?.[0] as string;
    expect((await apiClient(service.base, token)('GET', '/api/v1/api-tokens')).status).toBe(200);

    // A relative path is the caller's: the owner gets it made absolute.
    writeFileSync(
      join(elsewhere, 'advisories.jsonl'),
      jsonl([
        osvRecord({ id: 'GHSA-cli0-0003-cccc', affected: [npmRange('cli-pkg', '0', '1.0.1')] }),
      ]),
    );
    const imported = await driftwatch(['admin', 'import-osv', 'advisories.jsonl'], env, elsewhere);
    expect(imported.stderr).toContain(through);
    expect(imported.stdout).toContain('advisories.jsonl: 1 read, 1 added');
    expect(existsSync(join(elsewhere, 'data'))).toBe(false);

    const status = await driftwatch(['admin', 'status', '--json'], env, elsewhere);
    expect(JSON.parse(status.stdout)).toMatchObject({ dataDir, tenants: 2, advisories: 1 });

    const refused = await driftwatch(['admin', 'import-osv', 'missing.json'], env, elsewhere);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`missing.json: ENOENT`);

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dataDir, 'operator.json'))).toBe(false);
    const alone = await driftwatch(['admin', 'status', '--json'], env, elsewhere);
    expect(alone.stderr).toContain('(opened by this command: no service is running)');
    expect(JSON.parse(alone.stdout)).toMatchObject({ tenants: 2, advisories: 1 });
  }, 240_000);
});

describe('the default data directory', () => {
  test('is the user data directory wherever the command runs, never the working directory', async () => {
    const home = mkdtempSync(join(tmpdir(), 'dw-cli-home-'));
    const cwd = mkdtempSync(join(tmpdir(), 'dw-cli-cwd-'));
    const env = serviceEnv({ HOME: home });
    try {
      const outcome = await driftwatch(['admin', 'status'], env, cwd);
      const expected = join(home, '.local', 'share', 'driftwatch');
      expect(outcome.code).toBe(0);
      expect(outcome.stderr).toContain(`Database: the embedded database in ${expected}`);
      expect(outcome.stdout).toContain(`Data directory:    ${expected}`);
      expect(existsSync(join(expected, 'pgdata', 'PG_VERSION'))).toBe(true);
      expect(existsSync(join(cwd, 'data'))).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('command errors', () => {
  test('are one line and an exit code; --debug adds the stack trace', async () => {
    const cwd = tmpdir();
    const unreachable = serviceEnv({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    const failed = await driftwatch(['admin', 'status'], unreachable, cwd);
    expect(failed.code).toBe(1);
    const lines = failed.stderr.trim().split('\n');
    expect(lines).toEqual([
      'Database: PostgreSQL at nobody@127.0.0.1:1/none',
      'connecting to PostgreSQL at nobody@127.0.0.1:1/none …',
      expect.stringMatching(/^driftwatch: .*ECONNREFUSED/),
    ]);
    const debug = await driftwatch(['admin', 'status', '--debug'], unreachable, cwd);
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/\n\s+at /);

    const config = await driftwatch(['admin', 'status'], serviceEnv({ PORT: 'eighty' }), cwd);
    expect(config.code).toBe(2);
    expect(config.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^driftwatch: invalid configuration: PORT /),
    ]);
    // The service's start refuses a bad setting the same way: one line, exit 2 (README).
    const serve = await driftwatch(['serve'], serviceEnv({ PORT: 'abc' }), cwd);
    expect(serve.code).toBe(2);
    expect(serve.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^driftwatch: invalid configuration: PORT /),
    ]);
    const unknown = await driftwatch(['admin', 'frobnicate'], serviceEnv({}), cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
