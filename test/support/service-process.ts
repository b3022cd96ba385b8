import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

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

export async function startServiceProcess(
  env: NodeJS.ProcessEnv,
  args: string[] = [],
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => {
      const check = () => {
        if (!output.includes('Driftwatch is running')) return;
        child.stdout?.off('data', check);
        resolve(true);
      };
      child.stdout?.on('data', check);
    }),
    exited.then(() => false),
  ]);
  if (!ready) throw new Error(`the service did not start:\n${output}`);
  // The banner is one write, but a pipe may deliver it in pieces.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const port = /API:\s+http:\/\/localhost:(\d+)\//.exec(output)?.[1];
  const token = /shown once:\n\s+(\S+)/.exec(output)?.[1] ?? null;
  return {
    child,
    base: port ? `http://127.0.0.1:${port}` : '',
    bootstrapToken: token,
    output: () => output,
    exited,
  };
}

/** A fresh PostgreSQL database on TEST_DATABASE_URL's server; `drop` removes it. */
export async function createScratchDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `dw_life_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
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

/** What must never appear in a service's output. */
export const CRASH_SIGNS = [
  'Cannot use a pool',
  'unhandled promise rejection',
  'uncaught exception',
  'UnhandledPromiseRejection',
  'the orderly stop',
];
