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
import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../core/module-worker';
import type {
  EmbeddedWorkerInput,
  EmbeddedWorkerMessage,
  EmbeddedWorkerRequest,
} from './embedded-worker';

/**
 * The embedded database: PGlite (Postgres compiled to WASM) served on a Unix socket from a worker
 * thread of the service's process, so the application talks to it through the same `pg.Pool`
 * code path as to a real server, and the database's work runs beside the API's event loop.
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
/**
 * The worker thread's young generation (V8's nursery for new JavaScript objects). Left to V8, it
 * grows to two 16 MiB semi-spaces under the polling
 * queries of an idle service, and keeps it: 32 MB of idle RSS for a thread whose JavaScript only
 * moves protocol bytes between the socket and PGlite (the database's own memory is WebAssembly
 * memory, outside this heap). 6 MiB (2 MiB semi-spaces) keeps its scavenges short and frequent.
 * Only the young generation is capped: an old-generation cap would end the database on a large
 * result instead of letting it grow. docs/operations.md#memory.
 */
const EMBEDDED_YOUNG_GENERATION_MB = 6;
/**
 * PGlite's WebAssembly (PostgreSQL, 9 MB of code) is compiled by V8's baseline compiler only
 * (Liftoff), without the optimising tier V8 otherwise adds for every function that gets hot: that
 * tier-up compiled PostgreSQL's hot paths a second time at start and under idle polling, and its
 * code and compiler memory held 40-70 MB of the idle service's RSS and about 2 s of CPU to ready.
 * The trade, measured in docs/build.md ("Memory of the embedded database"): inserts and lookups
 * cost the same, scans were no slower, heavy joins over 300,000 rows ranged from faster to 20%
 * slower. A process-wide V8 flag, set before the first database starts; it changes how
 * WebAssembly compiles, never what it computes.
 */
let baselineWasmOnly = false;
function useBaselineWasmCompiler(): void {
  if (baselineWasmOnly) return;
  baselineWasmOnly = true;
  setFlagsFromString('--liftoff-only');
}

/** Whether `dataDir` already holds an embedded database (its first start creates one). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(join(dataDir, 'pgdata', 'PG_VERSION'));
}

/** How long an orderly stop waits for the worker to close the database before ending it. */
const STOP_LIMIT_MS = 30_000;

/**
 * The embedded database died while the service ran (its worker thread exited): every query
 * would fail from now on, so it is raised as an uncaught exception, which the process handlers
 * log as fatal before the orderly stop and exit 1 (src/process-handlers.ts).
 */
export class EmbeddedDatabaseDiedError extends Error {
  constructor(detail: string) {
    super(`The embedded database stopped unexpectedly: ${detail}`);
    this.name = 'EmbeddedDatabaseDiedError';
  }
}

/**
 * Starts PGlite on `dataDir/pgdata` (or in memory when `dataDir` is null) behind a Unix socket,
 * in a worker thread (./embedded-worker.ts): the database's work never blocks the API's event
 * loop, which only speaks the wire protocol to the socket. An in-memory database can start from
 * `snapshot` (another's `snapshot()`): tests open each file's database from one migrated copy
 * instead of running initdb and every migration again.
 */
export async function startEmbeddedServer(
  dataDir: string | null,
  snapshot?: Blob,
): Promise<EmbeddedServer> {
  let releaseLock = () => {};
  let pgdata: string | null = null;
  if (dataDir) {
    // Private: the database, the master key and the operator record are the user's alone.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // Taken here, in the process's main thread: the worker shares the process (and its pid).
    releaseLock = acquireDataDirLock(dataDirLockFile(dataDir));
    pgdata = join(dataDir, 'pgdata');
  }
  // Short socket path: Unix socket paths are limited to ~107 bytes, data dirs can be longer.
  const socketDir = mkdtempSync(join(tmpdir(), 'dw-pg-'));
  const cleanUp = () => {
    rmSync(socketDir, { recursive: true, force: true });
    releaseLock();
  };
  if (snapshot && pgdata && existsSync(join(pgdata, 'PG_VERSION'))) {
    cleanUp();
    throw new Error(`${dataDir} already holds a database: a snapshot loads into a new one only`);
  }
  const snapshotData = snapshot ? await snapshot.arrayBuffer() : null;
  const input: EmbeddedWorkerInput = {
    pgdata,
    snapshot: snapshotData,
    socketPath: join(socketDir, '.s.PGSQL.5432'),
    sharedBuffers: EMBEDDED_SHARED_BUFFERS,
  };
  let worker: Worker;
  try {
    useBaselineWasmCompiler();
    worker = startModuleWorker(import.meta.url, 'embedded-worker', {
      workerData: input,
      transferList: snapshotData ? [snapshotData] : [],
      resourceLimits: { maxYoungGenerationSizeMb: EMBEDDED_YOUNG_GENERATION_MB },
    });
    await workerReady(worker);
  } catch (error) {
    cleanUp();
    throw error;
  }
  return controlWorker(worker, socketDir, cleanUp);
}

/** Resolves on the worker's `ready`; rejects with its error, or its exit, before that. */
function workerReady(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: Error | null = null;
    const onMessage = (message: EmbeddedWorkerMessage) => {
      if (message.type !== 'ready') return;
      settle();
      resolve();
    };
    const onError = (error: Error) => {
      failure = error;
    };
    const onExit = (code: number) => {
      settle();
      reject(failure ?? new Error(`the embedded database worker exited with code ${code}`));
    };
    const settle = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

/** The running worker as an `EmbeddedServer`: snapshots, the orderly stop, and its death. */
function controlWorker(worker: Worker, socketDir: string, cleanUp: () => void): EmbeddedServer {
  const snapshots = new Map<
    number,
    { resolve: (blob: Blob) => void; reject: (e: Error) => void }
  >();
  let nextSnapshot = 0;
  let stopping = false;
  let lastError: Error | null = null;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (message: EmbeddedWorkerMessage) => {
    if (message.type !== 'snapshot' && message.type !== 'snapshot-failed') return;
    const pending = snapshots.get(message.id);
    snapshots.delete(message.id);
    if (message.type === 'snapshot') pending?.resolve(new Blob([message.data]));
    else pending?.reject(new Error(`snapshot failed: ${message.message}`));
  });
  worker.on('error', (error) => {
    lastError = error;
  });
  worker.once('exit', (code) => {
    cleanUp();
    const died = new EmbeddedDatabaseDiedError(lastError ? String(lastError) : `exit code ${code}`);
    for (const pending of snapshots.values()) pending.reject(died);
    snapshots.clear();
    if (stopping) return;
    // Loud: nothing can run without the database (see EmbeddedDatabaseDiedError).
    process.nextTick(() => {
      throw died;
    });
  });
  return {
    socketDir,
    snapshot: () =>
      new Promise<Blob>((resolve, reject) => {
        const id = nextSnapshot++;
        snapshots.set(id, { resolve, reject });
        worker.postMessage({ type: 'snapshot', id } satisfies EmbeddedWorkerRequest);
      }),
    stop: async () => {
      if (stopping) return exited;
      stopping = true;
      // The worker stops the socket server, then closes the database (a checkpoint) and
      // answers; past the bound, or if it answers not at all, it is ended.
      const stopped = new Promise<void>((resolve) => {
        worker.on('message', (message: EmbeddedWorkerMessage) => {
          if (message.type === 'stopped') resolve();
        });
      });
      worker.postMessage({ type: 'stop' } satisfies EmbeddedWorkerRequest);
      const limit = new Promise<void>((resolve) => setTimeout(resolve, STOP_LIMIT_MS).unref());
      await Promise.race([stopped, exited, limit]);
      await worker.terminate();
      await exited;
    },
  };
}
