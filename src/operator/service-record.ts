import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Each running service, on either database, leaves a record in `DATA_DIR/services/<pid>.json`
 * (docs/operations.md#operator-commands): which database it serves and where it listens. The data
 * directory is per user, so an operator command in another shell finds it even when its own
 * settings name another database (DATABASE_URL exported in one shell only), and says so instead
 * of quietly working on a database no service reads.
 */
export interface ServiceRecord {
  pid: number;
  /** As `describeDatabase` writes it: no password. */
  database: string;
  address: string | null;
}

const DIRECTORY = 'services';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user holds the pid, so it exists.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes this process's record; returns its removal. Best effort: a start never fails on it. */
export function advertiseService(dataDir: string, record: Omit<ServiceRecord, 'pid'>): () => void {
  const file = join(dataDir, DIRECTORY, `${process.pid}.json`);
  try {
    mkdirSync(join(dataDir, DIRECTORY), { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify({ pid: process.pid, ...record }), { mode: 0o600 });
  } catch {
    return () => {};
  }
  return () => {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  };
}

function readRecord(file: string): ServiceRecord | null {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof value?.pid !== 'number' || typeof value?.database !== 'string') return null;
    return {
      pid: value.pid,
      database: value.database,
      address: typeof value.address === 'string' ? value.address : null,
    };
  } catch {
    return null;
  }
}

/** The running services of this data directory whose database is not `database`. */
export function servicesElsewhere(dataDir: string, database: string): ServiceRecord[] {
  let names: string[];
  try {
    names = readdirSync(join(dataDir, DIRECTORY)).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return [];
  }
  const records = names.flatMap((name) => {
    const record = readRecord(join(dataDir, DIRECTORY, name));
    return record && record.pid !== process.pid && alive(record.pid) ? [record] : [];
  });
  return records.filter((record) => record.database !== database);
}
