import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/**
 * A hot standby of the PostgreSQL server named by a test URL, made on this machine with
 * pg_basebackup (streaming, standby.signal) in a temporary directory and started with pg_ctl on
 * a free port: a real streaming replica for the read-replica tests (docs/scaling.md).
 */
export interface StreamingReplica {
  port: number;
  /** `primaryUrl` with the standby's port: the same database, read from the replica. */
  urlFor(primaryUrl: string): string;
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the standby has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops the standby (fast shutdown); `remove` then only deletes its directory. */
  stop(): Promise<void>;
  remove(): Promise<void>;
}

/** Why no standby can be made here, or null when it can. */
export type StandbyStart = { replica: StreamingReplica } | { skip: string };

function binDir(major: number): string | null {
  const dir = `/usr/lib/postgresql/${major}/bin`;
  return existsSync(join(dir, 'pg_basebackup')) && existsSync(join(dir, 'pg_ctl')) ? dir : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, the tools run as the postgres user. */
function asServerUser(bin: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0
    ? ['runuser', ['-u', 'postgres', '--', bin, ...args]]
    : [bin, args];
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

// A hot standby needs these at least as high as on its primary.
const MATCHED_SETTINGS = [
  'max_connections',
  'max_worker_processes',
  'max_wal_senders',
  'max_prepared_transactions',
  'max_locks_per_transaction',
];

async function primaryFacts(serverUrl: string) {
  const rows = await query<{ name: string; setting: string }>(
    serverUrl,
    `SELECT name, setting FROM pg_settings
      WHERE name IN ('server_version_num', 'wal_level', ${MATCHED_SETTINGS.map((n) => `'${n}'`).join(', ')})`,
  );
  return new Map(rows.map((row) => [row.name, row.setting]));
}

async function replicationRefusal(serverUrl: string): Promise<string | null> {
  const url = new URL(serverUrl);
  const client = new pg.Client({
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username || 'postgres'),
    database: 'replication',
    replication: 'true',
  } as pg.ClientConfig);
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Makes and starts the standby, or says why it cannot (the primary does not allow replication
 * connections, wal_level is minimal, the server tools are missing): the caller skips with that.
 */
export async function startStreamingReplica(serverUrl: string): Promise<StandbyStart> {
  const facts = await primaryFacts(serverUrl);
  const major = Math.floor(Number(facts.get('server_version_num')) / 10_000);
  const bin = binDir(major);
  if (!bin) return { skip: `pg_basebackup/pg_ctl of PostgreSQL ${major} are not installed` };
  if (facts.get('wal_level') === 'minimal') {
    return { skip: 'the primary runs with wal_level=minimal (changing it needs a restart)' };
  }
  const refusal = await replicationRefusal(serverUrl);
  if (refusal) {
    return {
      skip: `the primary refuses replication connections (pg_hba.conf needs "host replication all 127.0.0.1/32 trust" and a reload): ${refusal}`,
    };
  }
  const primary = new URL(serverUrl);
  const dir = mkdtempSync(join(tmpdir(), 'dw-standby-'));
  const dataDir = join(dir, 'data');
  const owner = async (bin: string, args: string[]) => {
    const [file, argv] = asServerUser(bin, args);
    await run(file, argv, { timeout: 120_000 });
  };
  let serverUser: [number, number] | null = null;
  if (process.getuid?.() === 0) {
    const { stdout: uid } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    serverUser = [Number(uid.trim()), Number(gid.trim())];
    chownSync(dir, ...serverUser);
  }
  const port = await freePort();
  try {
    await owner(join(bin, 'pg_basebackup'), [
      '-h',
      primary.hostname,
      '-p',
      primary.port || '5432',
      '-U',
      decodeURIComponent(primary.username || 'postgres'),
      '-D',
      dataDir,
      '-X',
      'stream',
      '-c',
      'fast',
      '-R',
    ]);
    // Debian keeps postgresql.conf and pg_hba.conf in /etc: the copy has none, so it gets its own.
    const settings = MATCHED_SETTINGS.map((name) => `${name} = ${facts.get(name)}`);
    const conf = [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'hot_standby = on',
      'shared_buffers = 32MB',
      'logging_collector = off',
      ...settings,
    ];
    const files: [string, string][] = [
      ['postgresql.conf', `${conf.join('\n')}\n`],
      ['pg_hba.conf', 'local all all trust\nhost all all 127.0.0.1/32 trust\n'],
      ['pg_ident.conf', ''],
    ];
    for (const [name, text] of files) {
      const path = join(dataDir, name);
      writeFileSync(path, text);
      if (serverUser) chownSync(path, ...serverUser);
    }
    await owner(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', join(dir, 'log'), '-w', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { replica: replicaHandle(serverUrl, bin, dir, dataDir, port) };
}

function replicaHandle(
  serverUrl: string,
  bin: string,
  dir: string,
  dataDir: string,
  port: number,
): StreamingReplica {
  const urlFor = (primaryUrl: string) => {
    const url = new URL(primaryUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    return url.toString();
  };
  const standbyAdmin = urlFor(serverUrl);
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    const [file, argv] = asServerUser(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', 'stop']);
    await run(file, argv, { timeout: 60_000 }).catch(() => {});
  };
  return {
    port,
    urlFor,
    pauseReplay: async () => {
      await query(standbyAdmin, 'SELECT pg_wal_replay_pause()');
    },
    resumeReplay: async () => {
      await query(standbyAdmin, 'SELECT pg_wal_replay_resume()');
    },
    caughtUp: async (timeoutMs = 30_000) => {
      const [row] = await query<{ lsn: string }>(serverUrl, 'SELECT pg_current_wal_lsn() AS lsn');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [state] = await query<{ done: boolean }>(
          standbyAdmin,
          `SELECT pg_last_wal_replay_lsn() >= '${row?.lsn}'::pg_lsn AS done`,
        );
        if (state?.done) return;
        if (Date.now() > deadline) throw new Error(`the standby did not reach ${row?.lsn}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    stop,
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
