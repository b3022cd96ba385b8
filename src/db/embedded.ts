import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * The embedded database: PGlite (Postgres compiled to WASM) served in-process on a Unix socket,
 * so the application talks to it through the same `pg.Pool` code path as to a real server.
 * One process owns a data directory at a time (lock file).
 */
export interface EmbeddedServer {
  /** Directory holding the socket file `.s.PGSQL.5432`, usable as `host` for `pg`. */
  socketDir: string;
  /** The whole database as a tarball, to start another in-memory database from (tests). */
  snapshot: () => Promise<Blob>;
  stop: () => Promise<void>;
}

export class DataDirLockedError extends Error {
  constructor(lockFile: string, pid: number) {
    super(`The data directory is in use by process ${pid} (lock file ${lockFile}). Stop it first.`);
  }
}

/**
 * Who a process is, not just its number: a pid is reused after its process exits, so the lock
 * records the kernel's start time of the process (/proc/<pid>/stat field 22, clock ticks since
 * boot) and the boot id. Null where /proc is not available (not Linux).
 */
interface ProcessIdentity {
  bootId: string;
  startTicks: string;
}

function readProcessIdentity(pid: number): ProcessIdentity | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the command) is in parentheses and may itself contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = fields[19];
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return startTicks ? { bootId, startTicks } : null;
  } catch {
    return null;
  }
}

/** Milliseconds since the epoch at which `pid` started (Linux; 100 ticks per second). */
function processStartedAt(pid: number): number | null {
  const identity = readProcessIdentity(pid);
  if (!identity) return null;
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    return btime ? Number(btime) * 1000 + Number(identity.startTicks) * 10 : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface LockRecord {
  pid: number;
  identity: ProcessIdentity | null;
}

function parseLock(text: string): LockRecord | null {
  const trimmed = text.trim();
  // Lock files written before start times were recorded hold the bare pid.
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed), identity: null };
  try {
    const value = JSON.parse(trimmed) as Partial<{ pid: number } & ProcessIdentity>;
    const pid = value.pid;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return null;
    const identity =
      typeof value.bootId === 'string' && typeof value.startTicks === 'string'
        ? { bootId: value.bootId, startTicks: value.startTicks }
        : null;
    return { pid, identity };
  } catch {
    return null;
  }
}

/**
 * Whether the lock's owner still runs. A live pid alone proves nothing (pids are recycled): the
 * recorded start time must match. A bare-pid lock counts as held only if that process started
 * before the lock was written (2 s slack for the clock's granularity). Without /proc (not
 * Linux) a live pid is taken as the owner.
 */
function ownerRuns(lock: LockRecord, lockFile: string): boolean {
  if (lock.pid === process.pid || !isAlive(lock.pid)) return false;
  const current = readProcessIdentity(lock.pid);
  if (!current) return true;
  if (lock.identity) {
    return (
      lock.identity.bootId === current.bootId && lock.identity.startTicks === current.startTicks
    );
  }
  const startedAt = processStartedAt(lock.pid);
  return startedAt === null || startedAt <= statSync(lockFile).mtimeMs + 2000;
}

/** The lock file of an embedded data directory. */
export function dataDirLockFile(dataDir: string): string {
  return join(dataDir, 'driftwatch.lock');
}

/**
 * The pid of the live process that owns `dataDir` (its lock names it and it still runs), or null
 * when no process does: then whoever needs the directory may open it.
 */
export function runningOwner(dataDir: string): number | null {
  const lockFile = dataDirLockFile(dataDir);
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8');
  } catch {
    return null;
  }
  const lock = parseLock(text);
  return lock && ownerRuns(lock, lockFile) ? lock.pid : null;
}

/** Takes `lockFile` for this process (or throws `DataDirLockedError`); returns its release. */
export function acquireDataDirLock(lockFile: string): () => void {
  const own = JSON.stringify({ pid: process.pid, ...readProcessIdentity(process.pid) });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, own);
      closeSync(fd);
      return () => {
        try {
          // Only our own lock: never remove one a later owner wrote.
          if (readFileSync(lockFile, 'utf8') === own) unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const lock = parseLock(readFileSync(lockFile, 'utf8'));
      if (lock && ownerRuns(lock, lockFile)) throw new DataDirLockedError(lockFile, lock.pid);
      // A stale lock from a process that died (or an unreadable one): take it over.
      unlinkSync(lockFile);
    }
  }
  throw new Error(`could not acquire ${lockFile}`);
}

/**
 * PostgreSQL's buffer pool inside PGlite's WebAssembly memory. PGlite touches all of it at start,
 * so the 128 MB initdb default costs 128 MB of resident memory before the first query; a
 * one-process embedded database does not need it (the OS caches the data files below it).
 * Measured in docs/benchmarks.md ("Start-up and memory").
 */
const EMBEDDED_SHARED_BUFFERS = '16MB';
const embeddedOptions = {
  startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
};

/** Whether `dataDir` already holds an embedded database (its first start creates one). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(join(dataDir, 'pgdata', 'PG_VERSION'));
}

/**
 * Starts PGlite on `dataDir/pgdata` (or in memory when `dataDir` is null) behind a Unix socket.
 * An in-memory database can start from `snapshot` (another's `snapshot()`): tests open each
 * file's database from one migrated copy instead of running initdb and every migration again.
 */
export async function startEmbeddedServer(
  dataDir: string | null,
  snapshot?: Blob,
): Promise<EmbeddedServer> {
  let releaseLock = () => {};
  let pgdata: string | undefined;
  if (dataDir) {
    // Private: the database, the master key and the operator record are the user's alone.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    releaseLock = acquireDataDirLock(dataDirLockFile(dataDir));
    pgdata = join(dataDir, 'pgdata');
    if (!existsSync(join(pgdata, 'PG_VERSION'))) {
      // First start runs initdb; closing and reopening drops its memory (~800 MiB to ~300 MiB).
      const fresh = await PGlite.create(pgdata);
      await fresh.close();
    }
  }
  const db = await PGlite.create({
    dataDir: pgdata,
    ...(snapshot && !pgdata ? { loadDataDir: snapshot } : {}),
    ...embeddedOptions,
  });
  // Short socket path: Unix socket paths are limited to ~107 bytes, data dirs can be longer.
  const socketDir = mkdtempSync(join(tmpdir(), 'dw-pg-'));
  const server = new PGLiteSocketServer({
    db,
    path: join(socketDir, '.s.PGSQL.5432'),
    maxConnections: 100,
  });
  await server.start();
  return {
    socketDir,
    snapshot: () => db.dumpDataDir('none'),
    stop: async () => {
      await server.stop();
      await db.close();
      rmSync(socketDir, { recursive: true, force: true });
      releaseLock();
    },
  };
}
