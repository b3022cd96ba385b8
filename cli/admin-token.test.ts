import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { servicesElsewhere } from '../src/operator/service-record';
import {
  apiClient,
  type ServiceProcess,
  serviceEnv,
  startServiceProcess,
} from '../test/support/service-process';

const CLI = fileURLToPath(new URL('./driftwatch.cjs', import.meta.url));
const TOKEN_LINE = /^dw_[0-9A-Za-z]{46}$/m;

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

describe('driftwatch admin create-token', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dw-cli-token-'));
  const env = serviceEnv({ DATA_DIR: dataDir });
  let service: ServiceProcess | undefined;
  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('mints an owner token for an existing tenant, with and without a running service, audited', async () => {
    const tenant = await driftwatch(
      ['admin', 'create-tenant', '--name', 'Acme', '--plan', 'team'],
      env,
    );
    expect(tenant.code, tenant.stderr).toBe(0);
    const offline = await driftwatch(['admin', 'create-token', '--tenant', 'Acme'], env);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stderr).toContain('(opened by this command: no service is running)');
    expect(offline.stdout).toMatch(
      /^Created owner token ".+" \(id [0-9a-f-]{36}\) for tenant "Acme"/,
    );
    const offlineToken = TOKEN_LINE.exec(offline.stdout)?.[0] as string;
    expect(offlineToken).toBeDefined();

    const missing = await driftwatch(['admin', 'create-token', '--tenant', 'Nobody'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n').at(-1)).toBe('driftwatch: no tenant Nobody');
    const usage = await driftwatch(['admin', 'create-token'], env);
    expect(usage.code).toBe(2);

    service = await startServiceProcess(env);
    const online = await driftwatch(
      ['admin', 'create-token', '--tenant', 'Acme', '--name', 'recovered'],
      env,
    );
    expect(online.code, online.stderr).toBe(0);
    expect(online.stderr).toContain(`(through the running service, pid ${service.child.pid})`);
    const onlineToken = TOKEN_LINE.exec(online.stdout)?.[0] as string;

    const call = apiClient(service.base, onlineToken);
    const tokens = await call('GET', '/api/v1/api-tokens');
    expect(tokens.status).toBe(200);
    expect(tokens.body.items.map((t: { name: string }) => t.name).sort()).toEqual([
      'Acme owner',
      'owner (driftwatch admin create-token)',
      'recovered',
    ]);
    expect((await apiClient(service.base, offlineToken)('GET', '/api/v1/api-tokens')).status).toBe(
      200,
    );
    const audit = await call('GET', '/api/v1/audit-log?action=api_token.create');
    expect(audit.status).toBe(200);
    const made = audit.body.items.filter(
      (e: { details: { via?: string } | null }) =>
        e.details?.via === 'driftwatch admin create-token',
    );
    expect(made).toHaveLength(2);
  }, 240_000);

  test('an admin command names a running service that serves another database', async () => {
    expect(service).toBeDefined();
    const elsewhere = serviceEnv({
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    const outcome = await driftwatch(['admin', 'status'], elsewhere);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`Note: a service (pid ${service?.child.pid}, http://`);
    expect(outcome.stderr).toContain(
      `runs on the embedded database in ${dataDir}, not on this command's PostgreSQL at nobody@127.0.0.1:1/none; unset DATABASE_URL in this shell to reach it.`,
    );
    // The same database: nothing to note.
    const same = await driftwatch(['admin', 'status'], env);
    expect(same.stderr).not.toContain('Note:');
  }, 60_000);
});

describe('service records', () => {
  test('a record of a process that is gone, or of the same database, is not reported', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dw-records-'));
    try {
      mkdirSync(join(dataDir, 'services'));
      const write = (pid: number, database: string) =>
        writeFileSync(
          join(dataDir, 'services', `${pid}.json`),
          JSON.stringify({ pid, database, address: null }),
        );
      write(process.ppid, 'PostgreSQL at app@db:5432/driftwatch');
      write(2 ** 22 + 12_345, 'PostgreSQL at app@db:5432/gone');
      expect(servicesElsewhere(dataDir, 'the embedded database in /x')).toEqual([
        { pid: process.ppid, database: 'PostgreSQL at app@db:5432/driftwatch', address: null },
      ]);
      expect(servicesElsewhere(dataDir, 'PostgreSQL at app@db:5432/driftwatch')).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
