import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type pg from 'pg';
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Database } from '../db/connection';
import { startEmbeddedServer } from '../db/embedded';
import { listMigrations } from '../db/migrate';
import { masterKeyFingerprint } from '../security/secret-box';
import { BackupRefusedError, type PgTools, runPgDump, runPgRestore } from './pg-tools';

export { BackupRefusedError } from './pg-tools';

/**
 * `driftwatch admin backup FILE` / `restore FILE` (docs/scaling.md#backups). A backup file is
 * one JSON header line, then the payload: the embedded data directory as a gzipped tarball
 * (PGlite's dump, taken between two queries: a consistent, crash-safe copy while the service
 * runs), or a pg_dump archive in its custom format. The header names the master key by its
 * fingerprint, never the key: a restore with another key, or none, refuses before it writes.
 */
export const BACKUP_FORMAT = 'driftwatch-backup';

const Header = Type.Object({
  format: Type.Literal(BACKUP_FORMAT),
  version: Type.Literal(1),
  engine: Type.Union([Type.Literal('embedded'), Type.Literal('postgres')]),
  createdAt: Type.String(),
  /** The last migration the database had: a restore by an older build refuses. */
  schema: Type.Union([Type.String(), Type.Null()]),
  masterKeyFingerprint: Type.String({ pattern: '^[0-9a-f]{16}$' }),
  payload: Type.Union([Type.Literal('pglite-tar-gzip'), Type.Literal('pg-dump-custom')]),
  payloadBytes: Type.Integer({ minimum: 0 }),
  payloadSha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});
const headerCheck = Compile(Header);

export type BackupHeader = Static<typeof Header>;

export interface BackupSummary {
  path: string;
  engine: Database['engine'];
  bytes: number;
  schema: string | null;
  masterKeyFingerprint: string;
  /**
   * Embedded: how long the dump held the database (queries wait meanwhile; a request that waits
   * past DATABASE_ACQUIRE_TIMEOUT_MS gets the retryable 503). Null on PostgreSQL (no pause).
   */
  heldMs: number | null;
}

const HEADER_LIMIT_BYTES = 64 * 1024;

async function lastMigration(pool: pg.Pool): Promise<string | null> {
  const { rows } = await pool.query<{ name: string }>(
    'SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1',
  );
  return rows[0]?.name ?? null;
}

/** The size and SHA-256 of a file from `start` on. */
async function measureFile(path: string, start = 0): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { start })) {
    const data = Buffer.from(chunk);
    hash.update(data);
    bytes += data.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Writes header + payload to `path` (mode 0600) through a temporary file and a rename. */
async function assemble(
  path: string,
  header: Omit<BackupHeader, 'payloadBytes' | 'payloadSha256'>,
  payloadFile: string,
  heldMs: number | null,
): Promise<BackupSummary> {
  const { bytes, sha256 } = await measureFile(payloadFile);
  const full: BackupHeader = { ...header, payloadBytes: bytes, payloadSha256: sha256 };
  const temporary = `${path}.partial`;
  const out = createWriteStream(temporary, { mode: 0o600 });
  out.write(`${JSON.stringify(full)}\n`);
  await pipeline(createReadStream(payloadFile), out);
  renameSync(temporary, path);
  return {
    path,
    engine: full.engine,
    bytes: statSync(path).size,
    schema: full.schema,
    masterKeyFingerprint: full.masterKeyFingerprint,
    heldMs,
  };
}

function scratchDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'driftwatch-backup-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The embedded database (`database.snapshot`), through whichever process owns it. */
export async function backupEmbedded(
  database: Database,
  path: string,
  masterKey: string,
): Promise<BackupSummary> {
  if (!database.snapshot) throw new BackupRefusedError('not an embedded database');
  const scratch = scratchDir();
  try {
    // Fewer WAL records for the restore to replay; the dump is consistent either way.
    await database.pool.query('CHECKPOINT');
    const schema = await lastMigration(database.pool);
    const held = performance.now();
    const tarball = await database.snapshot();
    const heldMs = Math.round(performance.now() - held);
    const payload = join(scratch.dir, 'payload');
    await pipeline(Readable.fromWeb(tarball.stream()), createGzip(), createWriteStream(payload));
    return await assemble(
      path,
      {
        format: BACKUP_FORMAT,
        version: 1,
        engine: 'embedded',
        createdAt: new Date().toISOString(),
        schema,
        masterKeyFingerprint: masterKeyFingerprint(masterKey),
        payload: 'pglite-tar-gzip',
      },
      payload,
      heldMs,
    );
  } finally {
    scratch.remove();
  }
}

/** A PostgreSQL database through pg_dump (custom format: compressed, restorable table by table). */
export async function backupPostgres(
  database: Database,
  url: string,
  path: string,
  masterKey: string,
  tools: PgTools,
): Promise<BackupSummary> {
  const scratch = scratchDir();
  try {
    const schema = await lastMigration(database.pool);
    const payload = join(scratch.dir, 'payload');
    await runPgDump(tools, url, payload);
    return await assemble(
      path,
      {
        format: BACKUP_FORMAT,
        version: 1,
        engine: 'postgres',
        createdAt: new Date().toISOString(),
        schema,
        masterKeyFingerprint: masterKeyFingerprint(masterKey),
        payload: 'pg-dump-custom',
      },
      payload,
      null,
    );
  } finally {
    scratch.remove();
  }
}

/** The header of a backup file, and where its payload starts; refuses what is not one. */
export function readBackupHeader(path: string): { header: BackupHeader; offset: number } {
  if (!existsSync(path)) throw new BackupRefusedError(`${path} does not exist`);
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_LIMIT_BYTES);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const end = buffer.subarray(0, read).indexOf(0x0a);
    const parsed = end < 0 ? null : parseHeader(buffer.subarray(0, end).toString('utf8'));
    if (!parsed) throw new BackupRefusedError(`${path} is not a Driftwatch backup`);
    return { header: parsed, offset: end + 1 };
  } finally {
    closeSync(fd);
  }
}

function parseHeader(text: string): BackupHeader | null {
  try {
    const value: unknown = JSON.parse(text);
    return headerCheck.Check(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Refuses a restore that could not open the backup's secrets: no key at all (a service would
 * generate a new one), or another key than the one the backup was made with.
 */
export function checkMasterKey(header: BackupHeader, masterKey: string | null): void {
  const wanted = header.masterKeyFingerprint;
  const howTo = `set DRIFTWATCH_MASTER_KEY to the key of fingerprint ${wanted} (or put it in DATA_DIR/master.key) and restore again`;
  if (!masterKey) {
    throw new BackupRefusedError(
      `No master key: the backup's secrets (integration and provider credentials, webhook secrets) are sealed with the key of fingerprint ${wanted}, and without it they cannot be opened; ${howTo}.`,
    );
  }
  const have = masterKeyFingerprint(masterKey);
  if (have !== wanted) {
    throw new BackupRefusedError(
      `Wrong master key: this backup needs the key of fingerprint ${wanted}, the configured key is ${have}; ${howTo}.`,
    );
  }
}

/** The build's own migrations must include the backup's last one (never restore a newer schema). */
function checkSchema(header: BackupHeader): void {
  if (header.schema && !listMigrations().includes(header.schema)) {
    throw new BackupRefusedError(
      `The backup's schema (${header.schema}) is newer than this Driftwatch: restore it with the version that made it, or a later one.`,
    );
  }
}

/** Refuses a damaged or truncated file before anything is extracted from it. */
async function verifyPayload(path: string, header: BackupHeader, offset: number): Promise<void> {
  const { bytes, sha256 } = await measureFile(path, offset);
  if (bytes !== header.payloadBytes || sha256 !== header.payloadSha256) {
    throw new BackupRefusedError(`${path} is damaged: its payload does not match its checksum`);
  }
}

/** Copies the verified payload to `target`, gunzipped if asked. */
async function extractPayload(
  path: string,
  offset: number,
  target: string,
  gunzip: boolean,
): Promise<void> {
  const source = createReadStream(path, { start: offset });
  const out = createWriteStream(target, { mode: 0o600 });
  if (gunzip) await pipeline(source, createGunzip(), out);
  else await pipeline(source, out);
}

export type RestoreTarget =
  | { engine: 'embedded'; dataDir: string }
  | { engine: 'postgres'; url: string; tools: PgTools; isEmpty: () => Promise<boolean> };

export interface RestoreSummary {
  engine: Database['engine'];
  schema: string | null;
  createdAt: string;
}

/** Restores `path` into an empty target, after the checks that need no writing. */
export async function restoreBackup(
  path: string,
  target: RestoreTarget,
  masterKey: string | null,
): Promise<RestoreSummary> {
  const { header, offset } = readBackupHeader(path);
  if (header.engine !== target.engine) {
    throw new BackupRefusedError(
      header.engine === 'embedded'
        ? 'This is a backup of the embedded database: restore it with DATABASE_URL unset (into DATA_DIR).'
        : 'This is a backup of a PostgreSQL database: restore it with DATABASE_URL set to a new, empty database.',
    );
  }
  checkSchema(header);
  checkMasterKey(header, masterKey);
  await verifyPayload(path, header, offset);
  const scratch = scratchDir();
  try {
    const payload = join(scratch.dir, 'payload');
    if (target.engine === 'embedded') {
      if (existsSync(join(target.dataDir, 'pgdata', 'PG_VERSION'))) {
        throw new BackupRefusedError(
          `${target.dataDir} already holds a database: restore into a new DATA_DIR (or move this one away first).`,
        );
      }
      await extractPayload(path, offset, payload, true);
      await loadEmbedded(target.dataDir, payload);
    } else {
      if (!(await target.isEmpty())) {
        throw new BackupRefusedError(
          'The target database is not empty: restore into a new database (createdb), so nothing is merged or overwritten.',
        );
      }
      await extractPayload(path, offset, payload, false);
      await runPgRestore(target.tools, target.url, payload);
    }
  } finally {
    scratch.remove();
  }
  return { engine: header.engine, schema: header.schema, createdAt: header.createdAt };
}

/** Starts the embedded database on the new directory from the tarball, then stops it cleanly. */
async function loadEmbedded(dataDir: string, tarball: string): Promise<void> {
  // PGlite loads a tarball from memory in any case.
  const server = await startEmbeddedServer(dataDir, new Blob([readFileSync(tarball)]));
  await server.stop();
}

/** Where a backup may be written: its folder must exist (the file is created 0600). */
export function checkBackupPath(path: string): void {
  if (!existsSync(dirname(path))) {
    throw new BackupRefusedError(`${dirname(path)} does not exist`);
  }
  if (existsSync(path)) throw new BackupRefusedError(`${path} already exists: name a new file`);
}
