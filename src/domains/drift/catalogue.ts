import { type Kysely, type RawBuilder, sql } from 'kysely';
import { compositeKey } from '../../core/composite-key';
import type { DB } from '../../db/schema';
import type { DriftMetadataRow, DriftVersionRow } from '../../intel/package-catalogue/facts';
import type { MetadataStatus } from '../../intel/package-catalogue/tables';

/**
 * What drift reads of the catalogue, one statement per 500 packages: the metadata columns drift
 * needs (never the registry document) and each package's versions as one JSON array in the
 * registry's order, publication times as epoch milliseconds. One row per package instead of one
 * per version: a batch of IDE verdicts over packages with hundreds of versions each spent its
 * time building and parsing those rows (docs/benchmarks.md, IDE verdicts).
 */

export interface Catalogue {
  metadata: Map<string, DriftMetadataRow>;
  versions: Map<string, DriftVersionRow[]>;
}

/** [version, published (epoch ms) or null, deprecated, yanked, prerelease] */
type PackedVersion = [string, number | null, string | null, boolean, boolean];

interface CatalogueRow {
  package_id: string;
  ecosystem: string;
  name: string;
  status: MetadataStatus | null;
  latest_stable: string | null;
  deprecated: string | null;
  versions: PackedVersion[] | null;
}

/** The statement after a `wanted (id)` CTE of package ids. */
const catalogueSelect = sql`
  SELECT p.id AS package_id, p.ecosystem, p.name, m.status, m.latest_stable, m.deprecated,
    (SELECT json_agg(json_build_array(v.version,
        floor(extract(epoch FROM v.published_at) * 1000), v.deprecated, v.yanked, v.prerelease)
        ORDER BY v.ordinal)
      FROM package_versions v WHERE v.package_id = p.id) AS versions
  FROM packages p JOIN wanted w ON w.id = p.id
  LEFT JOIN package_metadata m ON m.package_id = p.id`;

function addRows(catalogue: Catalogue, rows: readonly CatalogueRow[]) {
  for (const row of rows) {
    if (row.status !== null) {
      catalogue.metadata.set(row.package_id, {
        package_id: row.package_id,
        status: row.status,
        latest_stable: row.latest_stable,
        deprecated: row.deprecated,
      });
    }
    if (row.versions === null) continue;
    catalogue.versions.set(
      row.package_id,
      row.versions.map(([version, published, deprecated, yanked, prerelease]) => ({
        version,
        published_at: published === null ? null : new Date(Number(published)),
        deprecated,
        yanked,
        prerelease,
      })),
    );
  }
}

async function loadChunked<T>(
  db: Kysely<DB>,
  keys: readonly T[],
  wanted: (chunk: readonly T[]) => RawBuilder<unknown>,
  catalogue: Catalogue,
): Promise<CatalogueRow[]> {
  const all: CatalogueRow[] = [];
  for (let i = 0; i < keys.length; i += 500) {
    const result = await sql<CatalogueRow>`WITH wanted AS (${wanted(keys.slice(i, i + 500))})
      ${catalogueSelect}`.execute(db);
    addRows(catalogue, result.rows);
    all.push(...result.rows);
  }
  return all;
}

/** The catalogue of these packages (drift of a scan, of a package's usage). */
export async function loadCatalogue(
  db: Kysely<DB>,
  packageIds: readonly string[],
): Promise<Catalogue> {
  const catalogue: Catalogue = { metadata: new Map(), versions: new Map() };
  const ids = [...new Set(packageIds)];
  await loadChunked(db, ids, (chunk) => sql`SELECT unnest(${[...chunk]}::uuid[]) AS id`, catalogue);
  return catalogue;
}

/**
 * The catalogue of packages named by (ecosystem, name), with the id of each known one, keyed
 * `ecosystem\u0000name` (IDE verdicts: the packages the service has never seen are absent).
 */
export async function loadCatalogueByName(
  db: Kysely<DB>,
  keys: readonly { ecosystem: string; name: string }[],
): Promise<{ packageIds: Map<string, string>; catalogue: Catalogue }> {
  const catalogue: Catalogue = { metadata: new Map(), versions: new Map() };
  const rows = await loadChunked(
    db,
    keys,
    (chunk) => sql`SELECT DISTINCT p.id FROM packages p
      JOIN unnest(${chunk.map((k) => k.ecosystem)}::text[], ${chunk.map((k) => k.name)}::text[])
        AS named(ecosystem, name) ON named.ecosystem = p.ecosystem AND named.name = p.name`,
    catalogue,
  );
  const packageIds = new Map(
    rows.map((row) => [compositeKey(row.ecosystem, row.name), row.package_id]),
  );
  return { packageIds, catalogue };
}
