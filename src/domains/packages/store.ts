import { type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { DependencySource, Resolution } from '../../ecosystems/types';

/**
 * Tenant-side reads and writes of package intelligence. Every function takes the request's (or
 * job's) tenant-scoped Kysely: usage and watches are row-level-secured tenant rows; the
 * catalogue is shared.
 *
 * Visibility: a catalogue package is visible to a tenant when its public registry knows it
 * (metadata status 'found'), or when the tenant uses or watches it. Names only seen in another
 * tenant's scans and unknown to the registry (private packages) are never shown to anyone else.
 */

type Db = Kysely<DB>;

// Row-level security limits both subqueries to the calling tenant.
const VISIBLE = sql<SqlBool>`(m.status = 'found'
  OR EXISTS (SELECT 1 FROM repository_dependencies d WHERE d.package_id = p.id)
  OR EXISTS (SELECT 1 FROM package_watches w WHERE w.package_id = p.id))`;

// For deep pages: the registry check as EXISTS over the partial index package_metadata_found,
// which PostgreSQL runs as one hashed probe set while walking (ecosystem, name, id) index-only
// (bench:packages: ~4x faster at skip=50,000, but ~15 ms of hashing that shallow pages avoid).
const VISIBLE_HASHED = sql<SqlBool>`(EXISTS (SELECT 1 FROM package_metadata pm WHERE pm.package_id = p.id AND pm.status = 'found')
  OR EXISTS (SELECT 1 FROM repository_dependencies d WHERE d.package_id = p.id)
  OR EXISTS (SELECT 1 FROM package_watches w WHERE w.package_id = p.id))`;
const DEEP_PAGE = 2000;

const LIST_COLUMNS = [
  'p.id',
  'p.ecosystem',
  'p.name',
  'p.purl',
  'p.created_at',
  'm.status',
  'm.latest_stable',
  'm.latest',
  'm.description',
  'm.licence',
  'm.repository_url',
  'm.deprecated',
  'm.fetched_at',
  // Why a package without metadata is still pending (the fetch schedule's last outcome).
  'e.last_outcome',
  'e.last_error',
  'e.due_at',
] as const;

export interface PackageFilter {
  ecosystem?: string;
  search?: string;
  take: number;
  skip: number;
}

/** Escapes LIKE wildcards so `search` is a plain substring. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listPackages(db: Db, filter: PackageFilter) {
  // Two steps: the page of ids (shallow pages join only the partial index of registry-known
  // packages; deep ones probe it hashed), then the details of those ids.
  const page = await (filter.skip >= DEEP_PAGE
    ? db.selectFrom('packages as p').select('p.id').where(VISIBLE_HASHED)
    : db
        .selectFrom('packages as p')
        .leftJoin('package_metadata as m', (join) =>
          join.onRef('m.package_id', '=', 'p.id').on('m.status', '=', 'found'),
        )
        .select('p.id')
        .where(VISIBLE)
  )
    .$if(filter.ecosystem !== undefined, (q) =>
      q.where('p.ecosystem', '=', filter.ecosystem as string),
    )
    .$if(Boolean(filter.search), (q) =>
      q.where(sql<SqlBool>`p.name ILIKE ${likePattern(filter.search as string)}`),
    )
    .orderBy('p.ecosystem')
    .orderBy('p.name')
    .limit(filter.take)
    .offset(filter.skip)
    .execute();
  if (page.length === 0) return [];
  const rows = await db
    .selectFrom('packages as p')
    .leftJoin('package_metadata as m', 'm.package_id', 'p.id')
    .leftJoin('package_enrichment as e', 'e.package_id', 'p.id')
    .select(LIST_COLUMNS)
    .where(
      'p.id',
      'in',
      page.map((r) => r.id),
    )
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return page.flatMap((r) => {
    const row = byId.get(r.id);
    return row ? [row] : [];
  });
}

export type ListedPackage = Awaited<ReturnType<typeof listPackages>>[number];

export async function findVisiblePackage(db: Db, packageId: string) {
  return db
    .selectFrom('packages as p')
    .leftJoin('package_metadata as m', 'm.package_id', 'p.id')
    .leftJoin('package_enrichment as e', 'e.package_id', 'p.id')
    .select(LIST_COLUMNS)
    .where('p.id', '=', packageId)
    .where(VISIBLE)
    .executeTakeFirst();
}

export interface UsageRow {
  repository_id: string;
  repository_name: string;
  scan_id: string;
  version: string | null;
  resolution: Resolution;
  scope: string;
  direct: boolean;
  file: string;
  source: DependencySource;
  observed_at: Date;
}

/** Where the tenant uses a package (its repositories' current dependencies). */
export async function usageOf(db: Db, packageId: string): Promise<UsageRow[]> {
  const rows = await db
    .selectFrom('repository_dependencies as d')
    .innerJoin('repositories as r', (join) =>
      join.onRef('r.tenant_id', '=', 'd.tenant_id').onRef('r.id', '=', 'd.repository_id'),
    )
    .leftJoin('scans as s', (join) =>
      join.onRef('s.tenant_id', '=', 'd.tenant_id').onRef('s.id', '=', 'd.scan_id'),
    )
    .select([
      'd.repository_id',
      'r.full_name as repository_name',
      'd.scan_id',
      'd.version',
      'd.resolution',
      'd.scope',
      'd.direct',
      'd.file',
      'd.source',
      sql<Date>`coalesce(s.finished_at, s.queued_at, r.updated_at)`.as('observed_at'),
    ])
    .where('d.package_id', '=', packageId)
    .orderBy('r.full_name')
    .orderBy('d.file')
    .orderBy('d.version')
    .limit(5000)
    .execute();
  return rows as UsageRow[];
}

export async function isWatched(db: Db, packageId: string): Promise<boolean> {
  const row = await db
    .selectFrom('package_watches')
    .select('id')
    .where('package_id', '=', packageId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Creates the watch; `created` is false when it already existed (then the note is kept). Runs in
 * the tenant scope: the database fills tenant_id from it.
 */
export async function watchPackage(
  db: Db,
  watch: {
    packageId: string;
    id: string;
    note: string | null;
    tokenId: string | null;
  },
) {
  const inserted = await db
    .insertInto('package_watches')
    .values({
      package_id: watch.packageId,
      id: watch.id,
      note: watch.note,
      created_by_token_id: watch.tokenId,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'package_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { row: inserted, created: true };
  const existing = await db
    .selectFrom('package_watches')
    .selectAll()
    .where('package_id', '=', watch.packageId)
    .executeTakeFirstOrThrow();
  return { row: existing, created: false };
}

export async function unwatchPackage(db: Db, packageId: string): Promise<void> {
  await db.deleteFrom('package_watches').where('package_id', '=', packageId).execute();
}

export async function listWatches(db: Db, page: { take: number; skip: number }) {
  return db
    .selectFrom('package_watches as w')
    .innerJoin('packages as p', 'p.id', 'w.package_id')
    .leftJoin('package_metadata as m', 'm.package_id', 'p.id')
    .select([
      'w.id as watch_id',
      'w.note',
      'w.created_at',
      'p.id',
      'p.ecosystem',
      'p.name',
      'p.purl',
      'm.latest_stable',
      'm.deprecated',
    ])
    .orderBy('w.created_at', 'desc')
    .orderBy('w.id', 'desc')
    .limit(page.take)
    .offset(page.skip)
    .execute();
}

export async function healthHistory(db: Db, packageId: string, take: number) {
  return db
    .selectFrom('package_health_snapshots')
    .select([
      sql<string>`to_char(snapshot_date, 'YYYY-MM-DD')`.as('date'),
      'computed_at',
      'signals',
      'default_score',
    ])
    .where('package_id', '=', packageId)
    .orderBy('snapshot_date', 'desc')
    .limit(take)
    .execute();
}

/** Catalogue ids of candidate names (for linking replacement candidates). */
export async function packageIdsByName(db: Db, ecosystem: string, names: readonly string[]) {
  if (names.length === 0) return new Map<string, string>();
  const rows = await db
    .selectFrom('packages')
    .select(['id', 'name'])
    .where('ecosystem', '=', ecosystem)
    .where('name', 'in', names)
    .execute();
  return new Map(rows.map((r) => [r.name, r.id]));
}
