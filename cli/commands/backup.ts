import { resolve } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/connection';
import { runningOwner } from '../../src/db/embedded';
import {
  type BackupSummary,
  backupPostgres,
  checkBackupPath,
  restoreBackup,
} from '../../src/operator/backup';
import { OperationInputError } from '../../src/operator/operations';
import { BackupRefusedError, findPgTools } from '../../src/operator/pg-tools';
import { readMasterKey } from '../../src/security/secret-box';
import { withDatabase } from '../database';
import { UsageError } from '../errors';

/**
 * `driftwatch admin backup FILE` and `driftwatch admin restore FILE` (docs/scaling.md#backups).
 * The database is the configuration's, as for every admin command: DATABASE_URL (pg_dump and
 * pg_restore), or the embedded database in DATA_DIR (through the running service, if any).
 */
function fileArgument(args: string[], action: string): string {
  const [file, ...extra] = args;
  if (!file || file.startsWith('-') || extra.length > 0) {
    throw new UsageError(`${action} needs exactly one FILE`, 'driftwatch admin --help');
  }
  return resolve(file);
}

/** A refusal is the operator's to act on (exit 2, one line), not a failure of the command. */
async function refusalsAsInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BackupRefusedError) throw new OperationInputError(error.message);
    throw error;
  }
}

function printSummary(summary: BackupSummary): void {
  console.log(
    `Backed up the ${summary.engine} database (schema ${summary.schema ?? 'empty'}) to ${summary.path}, ${summary.bytes} bytes.`,
  );
  if (summary.heldMs !== null) {
    console.log(`The copy held the database for ${summary.heldMs} ms (queries waited meanwhile).`);
  }
  console.log(
    `Its secrets need the master key of fingerprint ${summary.masterKeyFingerprint}: keep the key (not in this file) safe, apart from the backup.`,
  );
}

export async function backup(args: string[]): Promise<number> {
  const path = fileArgument(args, 'backup');
  const config = loadConfig();
  const summary = await refusalsAsInput(async () => {
    checkBackupPath(path);
    const url = config.databaseUrl;
    if (!url) return withDatabase((perform) => perform('backup', { path }));
    const tools = findPgTools();
    const masterKey = readMasterKey(config.masterKey, config.dataDir);
    if (!masterKey) {
      throw new BackupRefusedError(
        "DRIFTWATCH_MASTER_KEY is not set (and DATA_DIR has no master.key): set it to the service's key, so the backup can name the key its secrets need.",
      );
    }
    console.error(`Database: PostgreSQL (pg_dump)`);
    const database = await openDatabase({ url, dataDir: null, poolSize: 1 });
    try {
      return await backupPostgres(database, url, path, masterKey, tools);
    } finally {
      await database.close();
    }
  });
  printSummary(summary);
  return 0;
}

/** Whether a PostgreSQL database holds no table of its own yet (a restore never merges). */
async function isEmptyDatabase(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')`,
    );
    return rows[0]?.n === 0;
  } finally {
    await client.end();
  }
}

export async function restore(args: string[]): Promise<number> {
  const path = fileArgument(args, 'restore');
  const config = loadConfig();
  const masterKey = readMasterKey(config.masterKey, config.dataDir);
  const url = config.databaseUrl;
  const restored = await refusalsAsInput(async () => {
    if (url) {
      const tools = findPgTools();
      const target = {
        engine: 'postgres' as const,
        url,
        tools,
        isEmpty: () => isEmptyDatabase(url),
      };
      return restoreBackup(path, target, masterKey);
    }
    const owner = runningOwner(config.dataDir);
    if (owner !== null) {
      throw new BackupRefusedError(
        `a service (pid ${owner}) runs on ${config.dataDir}: restore into a new DATA_DIR, with no service on it`,
      );
    }
    return restoreBackup(path, { engine: 'embedded', dataDir: config.dataDir }, masterKey);
  });
  const where = url ? 'the PostgreSQL database of DATABASE_URL' : config.dataDir;
  console.log(
    `Restored the ${restored.engine} backup of ${restored.createdAt} (schema ${restored.schema ?? 'empty'}) into ${where}.`,
  );
  console.log('Start the service there with the same master key; it applies newer migrations.');
  return 0;
}
