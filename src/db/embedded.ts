import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
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
  stop: () => Promise<void>;
}

export class DataDirLockedError extends Error {
  constructor(lockFile: string, pid: number) {
    super(`The data directory is in use by process ${pid} (lock file ${lockFile}). Stop it first.`);
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

function acquireLock(lockFile: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(lockFile, pid);
      }
      // A stale lock from a process that died: take it over.
      unlinkSync(lockFile);
    }
  }
  throw new Error(`could not acquire ${lockFile}`);
}

/** Starts PGlite on `dataDir/pgdata` (or in memory when `dataDir` is null) behind a Unix socket. */
export async function startEmbeddedServer(dataDir: string | null): Promise<EmbeddedServer> {
  let releaseLock = () => {};
  let pgdata: string | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireLock(join(dataDir, 'driftwatch.lock'));
    pgdata = join(dataDir, 'pgdata');
    if (!existsSync(join(pgdata, 'PG_VERSION'))) {
      // First start runs initdb; closing and reopening drops its memory (~800 MiB to ~300 MiB).
      const fresh = await PGlite.create(pgdata);
      await fresh.close();
    }
  }
  const db = pgdata ? await PGlite.create(pgdata) : await PGlite.create();
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
    stop: async () => {
      await server.stop();
      await db.close();
      rmSync(socketDir, { recursive: true, force: true });
      releaseLock();
    },
  };
}
