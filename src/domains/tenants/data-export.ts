import { createHash } from 'node:crypto';
import { strToU8, Zip, ZipDeflate } from 'fflate';
import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/connection';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { withTenant } from '../../db/tenant-scope';
import { defineJob, type PayloadOf } from '../../jobs/contract';
import { enqueue } from '../../jobs/outbox';
import type { JobEnvelope } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { listTenantTables, type TenantTableInfo } from './catalogue';
import type { DataExportManifest, DataExportManifestFile } from './tables';

export const DATA_EXPORT = defineJob({
  name: 'tenants.data-export',
  payload: Type.Object({ exportId: Type.String() }),
  expireInSeconds: 3600,
  retryLimit: 2,
});
export const EXPIRE_DATA_EXPORTS = defineJob({
  name: 'tenants.expire-data-exports',
  payload: Type.Object({}),
  expireInSeconds: 300,
  retryLimit: 3,
  schedule: '*/15 * * * *',
});

const FETCH_ROWS = 2000;

export type DataExportJob = PayloadOf<typeof DATA_EXPORT>;

const EXPORT_STATE_COLUMNS = [
  'id',
  'state',
  'requested_by_token_id',
  'archive_bytes',
  'archive_sha256',
  'manifest',
  'error',
  'created_at',
  'started_at',
  'finished_at',
  'expires_at',
] as const;

/** POST /api/v1/tenants/current/data-export: the row and its job, in the request's transaction. */
export async function requestDataExport(
  db: Kysely<DB>,
  input: { tenantId: string; tokenId: string; ttlHours: number; correlationId: string },
) {
  const id = newId();
  const row = await db
    .insertInto('tenant_data_exports')
    .values({
      id,
      requested_by_token_id: input.tokenId,
      expires_at: sql<Date>`now() + make_interval(hours => ${input.ttlHours})`,
    })
    .returning(EXPORT_STATE_COLUMNS)
    .executeTakeFirstOrThrow();
  await enqueue(db, DATA_EXPORT, {
    tenantId: input.tenantId,
    data: { exportId: id },
    correlationId: input.correlationId,
  });
  return row;
}

/** An export that has not expired (an expired one is as gone as a deleted one). */
export async function findDataExport(db: Kysely<DB>, exportId: string) {
  return db
    .selectFrom('tenant_data_exports')
    .select(EXPORT_STATE_COLUMNS)
    .where('id', '=', exportId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}

export type DataExportRow = NonNullable<Awaited<ReturnType<typeof findDataExport>>>;

export async function findDataExportArchive(db: Kysely<DB>, exportId: string) {
  return db
    .selectFrom('tenant_data_exports')
    .select(['id', 'state', 'archive', 'archive_sha256'])
    .where('id', '=', exportId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}

/** The export job: snapshot, zip, store; a failure is recorded on the export (a visible state). */
export async function runDataExportJob(
  deps: JobDeps,
  envelope: JobEnvelope<DataExportJob>,
): Promise<void> {
  const tenantId = envelope.tenantId;
  if (!tenantId) return;
  const { exportId } = envelope.data;
  const claimed = await withTenant(deps.database, tenantId, (db) =>
    db
      .updateTable('tenant_data_exports')
      .set({ state: 'running', started_at: sql<Date>`now()` })
      .where('id', '=', exportId)
      .where('state', 'in', ['queued', 'running'])
      .returning('id')
      .executeTakeFirst(),
  );
  if (!claimed) return;
  try {
    const built = await buildArchive(deps.database, tenantId, exportId);
    await withTenant(deps.database, tenantId, (db) =>
      db
        .updateTable('tenant_data_exports')
        .set({
          state: 'completed',
          archive: Buffer.from(built.archive),
          archive_bytes: String(built.archive.byteLength),
          archive_sha256: sha256(built.archive),
          manifest: JSON.stringify(built.manifest),
          finished_at: sql<Date>`now()`,
        })
        .where('id', '=', exportId)
        .execute(),
    );
  } catch (error) {
    deps.log('data export failed', { exportId, error: (error as Error).message });
    await withTenant(deps.database, tenantId, (db) =>
      db
        .updateTable('tenant_data_exports')
        .set({ state: 'failed', error: 'The export could not be built; request a new one.' })
        .set({ finished_at: sql<Date>`now()` })
        .where('id', '=', exportId)
        .execute(),
    );
  }
}

/** Deletes expired exports of every tenant (system job, every 15 minutes). */
export async function deleteExpiredDataExports(database: Database): Promise<number> {
  const deleted = await database.system
    .deleteFrom('tenant_data_exports')
    .where('expires_at', '<=', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * One repeatable-read transaction in the tenant's scope reads every tenant table (and the tenant
 * row), so the files agree with each other; each becomes `<table>.ndjson` in the zip, with
 * `manifest.json` giving each file's row count, byte size and SHA-256.
 */
async function buildArchive(
  database: Database,
  tenantId: string,
  exportId: string,
): Promise<{ archive: Uint8Array; manifest: DataExportManifest }> {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    chunks.push(data);
  });
  const manifest = await withTenant(
    database,
    tenantId,
    async (db) => {
      const snapshot = await sql<{ at: Date }>`SELECT now() AS at`.execute(db);
      const files: DataExportManifestFile[] = [];
      const withheld: Record<string, string[]> = {};
      files.push(
        await addTable(zip, db, 'tenants', sql`SELECT to_jsonb(t)::text AS line FROM tenants t`),
      );
      for (const table of await listTenantTables(db)) {
        if (table.withheldColumns.length > 0) withheld[table.name] = table.withheldColumns;
        files.push(await addTable(zip, db, table.name, tableQuery(table)));
      }
      return {
        exportId,
        tenantId,
        snapshotAtUtc: (snapshot.rows[0]?.at ?? new Date()).toISOString(),
        files,
        withheldColumns: withheld,
      };
    },
    'repeatable read',
  );
  const manifestFile = new ZipDeflate('manifest.json', { level: 6 });
  zip.add(manifestFile);
  manifestFile.push(strToU8(JSON.stringify(manifest, null, 2)), true);
  zip.end();
  return { archive: concat(chunks), manifest };
}

function tableQuery(table: TenantTableInfo) {
  const withheld = table.withheldColumns;
  const row = withheld.length > 0 ? sql`to_jsonb(t) - ${withheld}::text[]` : sql`to_jsonb(t)`;
  return sql`SELECT (${row})::text AS line FROM ${sql.table(table.name)} t`;
}

/** Streams one query through a cursor into `<table>.ndjson`, hashing as it goes. */
async function addTable(
  zip: Zip,
  db: Kysely<DB>,
  table: string,
  query: ReturnType<typeof sql>,
): Promise<DataExportManifestFile> {
  const name = `${table}.ndjson`;
  const file = new ZipDeflate(name, { level: 6 });
  zip.add(file);
  const hash = createHash('sha256');
  let rows = 0;
  let bytes = 0;
  await sql`DECLARE dw_export NO SCROLL CURSOR FOR ${query}`.execute(db);
  for (;;) {
    const page = await sql<{
      line: string;
    }>`FETCH FORWARD ${sql.raw(String(FETCH_ROWS))} FROM dw_export`.execute(db);
    if (page.rows.length === 0) break;
    const text = strToU8(`${page.rows.map((r) => r.line).join('\n')}\n`);
    hash.update(text);
    rows += page.rows.length;
    bytes += text.byteLength;
    file.push(text, false);
  }
  await sql`CLOSE dw_export`.execute(db);
  file.push(new Uint8Array(0), true);
  return { name, table, rows, bytes, sha256: hash.digest('hex') };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
