import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../src/db/connection';
import { migrate } from '../../src/db/migrate';
import { createTenantWithOwner } from '../../src/domains/tenants/service';
import { provided } from './provided';
import { refuseInUnitTier } from './test-tiers';

/**
 * A real `driftwatch serve` process (the CLI entry, as an operator starts it) for lifecycle
 * tests: signals, exit codes and everything it writes are observable.
 */
export interface ServiceProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Owner token printed on the first embedded start, else null. */
  bootstrapToken: string | null;
  /** stdout and stderr so far. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const CLI = fileURLToPath(new URL('../../cli/driftwatch.cjs', import.meta.url));

/** Bounds a start that hangs; an orderly start takes seconds (the embedded database's first). */
const SERVICE_START_MS = 120_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Environment of a service under test: quiet limits, loopback only, nothing inherited. */
export function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_TENANT_PER_MINUTE: '1000000',
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
    RATE_LIMIT_IP_PER_MINUTE: '1000000',
    // Never the internet: no registry from this machine's npm/pip/... configuration, no feed.
    REGISTRY_CLIENT_DEFAULTS: 'false',
    OSV_FEED_URL: 'off',
    ...extra,
  };
}

/** A child process whose stdout and stderr are collected, as the lifecycle tests observe it. */
export interface CapturedProcess {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the output contains `text`; throws when the child exits first or `ms` pass. */
  waitFor: (text: string, ms: number) => Promise<void>;
}

/** `node <args>` with `env` only, its output collected. */
export function spawnCaptured(args: string[], env: NodeJS.ProcessEnv): CapturedProcess {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let gone = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      gone = true;
      resolve({ code, signal });
    }),
  );
  const waitFor = async (text: string, ms: number) => {
    const until = Date.now() + ms;
    while (!output.includes(text)) {
      if (gone) throw new Error(`exited before "${text}":\n${output}`);
      if (Date.now() > until) throw new Error(`no "${text}" within ${ms} ms:\n${output}`);
      await sleep(20);
    }
  };
  return { child, output: () => output, exited, waitFor };
}

export async function startServiceProcess(
  env: NodeJS.ProcessEnv,
  args: string[] = [],
): Promise<ServiceProcess> {
  refuseInUnitTier('started the service');
  const started = spawnCaptured([CLI, 'serve', ...args], env);
  try {
    await started.waitFor('Driftwatch is running', SERVICE_START_MS);
  } catch {
    throw new Error(`the service did not start:\n${started.output()}`);
  }
  // The banner is one write, but a pipe may deliver it in pieces.
  await sleep(100);
  const output = started.output();
  const port = /API:\s+http:\/\/localhost:(\d+)\//.exec(output)?.[1];
  const token = /shown once:\n\s+(\S+)/.exec(output)?.[1] ?? null;
  return {
    child: started.child,
    base: port ? `http://127.0.0.1:${port}` : '',
    bootstrapToken: token,
    output: started.output,
    exited: started.exited,
  };
}

export type ApiCall = ReturnType<typeof apiClient>;

/** Calls of a running service's API with a bearer token: the status and the parsed JSON body. */
export function apiClient(base: string, token: string) {
  return async (method: string, path: string, body?: unknown) => {
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
}

/**
 * Polls a queued scan until the worker has finished it (pg-boss polls every 2 s), or `ms` have
 * passed: the scan as last read, whose state the caller checks.
 */
export async function waitForScan(call: ApiCall, scanId: string, ms = 170_000) {
  const until = Date.now() + ms;
  let scan = (await call('GET', `/api/v1/scans/${scanId}`)).body;
  while ((scan.state === 'queued' || scan.state === 'running') && Date.now() < until) {
    await sleep(250);
    const polled = await call('GET', `/api/v1/scans/${scanId}`);
    if (polled.status === 200) scan = polled.body;
  }
  return scan;
}

/**
 * CREATE DATABASE, copying `template` when given. PostgreSQL refuses the copy while any session
 * is connected to the template (55006), and a closed session's backend leaves a moment after its
 * client: the copy is retried for a few seconds.
 */
async function createDatabase(admin: pg.Client, name: string, template: string | null) {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
      return;
    } catch (error) {
      const inUse = (error as { code?: string }).code === '55006';
      if (!inUse || attempt >= 50) throw error;
      await sleep(100);
    }
  }
}

/**
 * A fresh PostgreSQL database on TEST_DATABASE_URL's server, empty or a copy of `template`;
 * `drop` removes it.
 */
export async function createScratchDatabase(
  serverUrl: string,
  template: string | null = null,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `dw_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await createDatabase(admin, name, template);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export const randomMasterKey = () => randomBytes(32).toString('base64');

/** The database a service process under test starts on, as its environment names it. */
export interface ServiceDatabase {
  env: Record<string, string>;
  /** Owner token of a tenant created beforehand (PostgreSQL), else null (embedded bootstrap). */
  token: string | null;
  remove: () => Promise<void>;
}

/**
 * A migrated scratch database with one tenant on `serverUrl` (PostgreSQL), or an empty data
 * directory for the embedded database, whose first start prints the owner token.
 */
export async function prepareServiceDatabase(
  serverUrl: string | undefined,
  tenantName: string,
): Promise<ServiceDatabase> {
  // PostgreSQL too: the service keeps its repositories root there, never in the home directory.
  const dataDir = mkdtempSync(join(tmpdir(), 'driftwatch-service-'));
  if (!serverUrl) {
    return {
      env: { DATA_DIR: dataDir },
      token: null,
      remove: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const scratch = await createScratchDatabase(serverUrl, provided('postgresTemplate'));
  const database = await openDatabase({ url: scratch.url, dataDir: null, poolSize: 2 });
  await migrate(database.pool);
  const tenant = await createTenantWithOwner(database, { name: tenantName, plan: 'enterprise' });
  await database.close();
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: scratch.url, DRIFTWATCH_MASTER_KEY: randomMasterKey() },
    token: tenant.ownerToken,
    remove: async () => {
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What must never appear in a service's output. */
export const CRASH_SIGNS = [
  'Cannot use a pool',
  'unhandled promise rejection',
  'uncaught exception',
  'UnhandledPromiseRejection',
  'the orderly stop',
];
