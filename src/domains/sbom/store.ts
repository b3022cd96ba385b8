import { type Kysely, type Selectable, sql } from 'kysely';
import { compositeKey } from '../../core/composite-key';
import type { DB } from '../../db/schema';
import type { Ecosystem } from '../../ecosystems/types';
import type { SbomGraph } from '../../sbom/types';
import type { SbomExportFormat, SbomExportTable, SbomImportTable } from './tables';

export type SbomImportRow = Selectable<SbomImportTable>;
export type SbomExportRow = Selectable<SbomExportTable>;

/** Export columns without the document (state reads never load megabytes). */
const EXPORT_STATE_COLUMNS = [
  'id',
  'repository_id',
  'format',
  'state',
  'scan_id',
  'component_count',
  'document_bytes',
  'document_sha256',
  'error',
  'created_at',
  'started_at',
  'finished_at',
] as const;
export type SbomExportState = Pick<SbomExportRow, (typeof EXPORT_STATE_COLUMNS)[number]>;

export async function findRepository(db: Kysely<DB>, repositoryId: string) {
  return db
    .selectFrom('repositories')
    .select(['id', 'name', 'full_name', 'clone_url', 'web_url', 'last_scan_id'])
    .where('id', '=', repositoryId)
    .executeTakeFirst();
}

export async function insertSbomImport(
  db: Kysely<DB>,
  row: {
    id: string;
    repositoryId: string;
    scanId: string;
    graph: SbomGraph;
    warnings: string[];
    documentSha256: string;
    documentBytes: number;
  },
): Promise<void> {
  await db
    .insertInto('sbom_imports')
    .values({
      id: row.id,
      repository_id: row.repositoryId,
      scan_id: row.scanId,
      format: row.graph.format,
      spec_version: row.graph.specVersion,
      tool: row.graph.tool,
      component_count: row.graph.nodes.length,
      document_sha256: row.documentSha256,
      document_bytes: row.documentBytes,
      graph: JSON.stringify(row.graph),
      warnings: JSON.stringify(row.warnings),
    })
    .execute();
}

export async function findSbomImport(db: Kysely<DB>, importId: string) {
  return db.selectFrom('sbom_imports').selectAll().where('id', '=', importId).executeTakeFirst();
}

export async function insertSbomExport(
  db: Kysely<DB>,
  row: { id: string; repositoryId: string; format: SbomExportFormat },
): Promise<SbomExportState> {
  return db
    .insertInto('sbom_exports')
    .values({
      id: row.id,
      repository_id: row.repositoryId,
      format: row.format,
      state: 'queued',
    })
    .returning(EXPORT_STATE_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function findSbomExport(
  db: Kysely<DB>,
  exportId: string,
): Promise<SbomExportState | undefined> {
  return db
    .selectFrom('sbom_exports')
    .select(EXPORT_STATE_COLUMNS)
    .where('id', '=', exportId)
    .executeTakeFirst();
}

export async function findSbomExportDocument(db: Kysely<DB>, exportId: string) {
  return db
    .selectFrom('sbom_exports')
    .select(['id', 'repository_id', 'format', 'state', 'document', 'document_sha256', 'created_at'])
    .where('id', '=', exportId)
    .executeTakeFirst();
}

export async function listSbomExports(
  db: Kysely<DB>,
  repositoryId: string,
  take: number,
): Promise<SbomExportState[]> {
  return db
    .selectFrom('sbom_exports')
    .select(EXPORT_STATE_COLUMNS)
    .where('repository_id', '=', repositoryId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(take)
    .execute();
}

/** Claims a queued export (locks the row) for the job: queued → running. */
export async function claimExport(db: Kysely<DB>, exportId: string) {
  return db
    .updateTable('sbom_exports')
    .set({ state: 'running', started_at: sql<Date>`now()`, error: null })
    .where('id', '=', exportId)
    .where('state', 'in', ['queued', 'running'])
    .returning(['id', 'repository_id', 'format', 'created_at'])
    .executeTakeFirst();
}

export interface StoredDependencyRow {
  ecosystem: Ecosystem;
  name: string;
  version: string | null;
  purl: string;
  direct: boolean;
  parents: string[];
  scope: string;
  package_id: string;
  scan_id: string;
}

/** The repository's stored dependencies, in a stable order. */
export async function listRepositoryDependencies(
  db: Kysely<DB>,
  repositoryId: string,
): Promise<StoredDependencyRow[]> {
  const rows = await db
    .selectFrom('repository_dependencies')
    .select([
      'ecosystem',
      'name',
      'version',
      'purl',
      'direct',
      'parents',
      'scope',
      'package_id',
      'scan_id',
    ])
    .where('repository_id', '=', repositoryId)
    .orderBy('ecosystem')
    .orderBy('name')
    .orderBy('version')
    .orderBy('id')
    .execute();
  return rows as StoredDependencyRow[];
}

/**
 * Licences the catalogue knows, per (package, version): the version's own, else the package's.
 * The registry metadata tables come from another migration; without them there are none.
 */
export async function findLicences(
  db: Kysely<DB>,
  pairs: { packageId: string; version: string | null }[],
): Promise<Map<string, string>> {
  const licences = new Map<string, string>();
  if (pairs.length === 0) return licences;
  const present = await sql<{ present: boolean }>`
    SELECT to_regclass('package_metadata') IS NOT NULL
       AND to_regclass('package_versions') IS NOT NULL AS present`.execute(db);
  if (!present.rows[0]?.present) return licences;
  const ids = [...new Set(pairs.map((pair) => pair.packageId))];
  const packageLevel = await sql<{ package_id: string; licence: string | null }>`
    SELECT package_id, licence FROM package_metadata
    WHERE package_id = ANY(${ids}::uuid[]) AND licence IS NOT NULL`.execute(db);
  const versioned = pairs.filter((pair) => pair.version !== null);
  const versionLevel = await sql<{ package_id: string; version: string; licence: string | null }>`
    SELECT v.package_id, v.version, v.licence FROM package_versions v
    JOIN unnest(${versioned.map((pair) => pair.packageId)}::uuid[],
                ${versioned.map((pair) => pair.version)}::text[]) AS w(package_id, version)
      ON v.package_id = w.package_id AND v.version = w.version
    WHERE v.licence IS NOT NULL`.execute(db);
  const byPackage = new Map(packageLevel.rows.map((row) => [row.package_id, row.licence]));
  const byVersion = new Map(
    versionLevel.rows.map((row) => [compositeKey(row.package_id, row.version), row.licence]),
  );
  for (const pair of pairs) {
    const key = compositeKey(pair.packageId, pair.version ?? '');
    const licence = byVersion.get(key) ?? byPackage.get(pair.packageId);
    if (licence) licences.set(key, licence);
  }
  return licences;
}
