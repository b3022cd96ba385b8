import { type Kysely, type Selectable, sql } from 'kysely';
import { isUuid } from '../../core/uuid';
import { type TakeSkip, type TakeSkipPage, takeSkipPage } from '../../db/paging';
import type { DB } from '../../db/schema';
import type { VulnerabilityTable } from '../../intel/advisory-store/tables';
import type { SeverityRating } from '../../intel/osv/types';

/** Reads of the shared advisory store (any tenant's scope can read it). */
export interface VulnerabilityFilter {
  severity?: SeverityRating;
  ecosystem?: string;
  search?: string;
  publishedFrom?: Date;
  publishedTo?: Date;
  includeWithdrawn?: boolean;
}

export type VulnerabilityRow = Selectable<VulnerabilityTable>;

function filtered(db: Kysely<DB>, filter: VulnerabilityFilter) {
  let query = db.selectFrom('vulnerabilities').where('merged_into', 'is', null);
  if (!filter.includeWithdrawn) query = query.where('withdrawn_at', 'is', null);
  if (filter.severity) query = query.where('severity_rating', '=', filter.severity);
  if (filter.ecosystem) {
    const wanted = filter.ecosystem;
    query = query.where(sql<boolean>`${wanted} = ANY(ecosystems)`);
  }
  if (filter.search) {
    const needle = filter.search.toLowerCase();
    query = query.where(sql<boolean>`strpos(search_text, ${needle}) > 0`);
  }
  if (filter.publishedFrom) query = query.where('published_at', '>=', filter.publishedFrom);
  if (filter.publishedTo) query = query.where('published_at', '<=', filter.publishedTo);
  return query;
}

export async function listVulnerabilities(
  db: Kysely<DB>,
  filter: VulnerabilityFilter,
  page: TakeSkip,
): Promise<TakeSkipPage<VulnerabilityRow>> {
  return takeSkipPage(
    filtered(db, filter),
    (query) => query.selectAll().orderBy(sql`published_at DESC NULLS LAST`).orderBy('id'),
    page,
  );
}

/**
 * A vulnerability by its UUID (a merged one answers with the group it joined) or by any of its
 * identifiers (an advisory id or alias: CVE-..., GHSA-..., PYSEC-...).
 */
export async function findVulnerability(
  db: Kysely<DB>,
  idOrIdentifier: string,
): Promise<VulnerabilityRow | undefined> {
  let id: string | undefined;
  if (isUuid(idOrIdentifier)) {
    const row = await db
      .selectFrom('vulnerabilities')
      .select(['id', 'merged_into'])
      .where('id', '=', idOrIdentifier)
      .executeTakeFirst();
    id = row ? (row.merged_into ?? row.id) : undefined;
  } else {
    const direct = await db
      .selectFrom('osv_advisories')
      .select('vulnerability_id')
      .where('id', '=', idOrIdentifier)
      .executeTakeFirst();
    const viaAlias =
      direct ??
      (await db
        .selectFrom('osv_advisory_aliases')
        .innerJoin('osv_advisories', 'osv_advisories.id', 'osv_advisory_aliases.advisory_id')
        .select('osv_advisories.vulnerability_id')
        .where('osv_advisory_aliases.alias', '=', idOrIdentifier)
        .orderBy('osv_advisories.vulnerability_id')
        .executeTakeFirst());
    id = viaAlias?.vulnerability_id;
  }
  if (!id) return undefined;
  return db.selectFrom('vulnerabilities').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function advisoriesOf(db: Kysely<DB>, vulnerabilityId: string) {
  return db
    .selectFrom('osv_advisories')
    .select([
      'id',
      'modified_at',
      'published_at',
      'withdrawn_at',
      'summary',
      'severity_rating',
      'severity_score',
      'severity_vector',
      'severity_type',
      'refs',
      'source',
    ])
    .where('vulnerability_id', '=', vulnerabilityId)
    .orderBy('id')
    .execute();
}

export type AffectedRow = Awaited<ReturnType<typeof affectedOf>>[number];

export async function affectedOf(db: Kysely<DB>, advisoryIds: string[]) {
  if (advisoryIds.length === 0) return [];
  return db
    .selectFrom('osv_affected as a')
    .leftJoin('packages as p', (join) =>
      join.onRef('p.ecosystem', '=', 'a.ecosystem').onRef('p.name', '=', 'a.name'),
    )
    .select([
      'a.advisory_id',
      'a.ordinal',
      'a.ecosystem',
      'a.osv_ecosystem',
      'a.name',
      'a.osv_name',
      'a.ranges',
      'a.versions',
      'a.fixed_versions',
      'a.withdrawn',
      'p.id as package_id',
    ])
    .where('a.advisory_id', 'in', advisoryIds)
    .orderBy('a.advisory_id')
    .orderBy('a.ordinal')
    .execute();
}

/** Vulnerabilities whose live (not withdrawn) advisories name the package. */
export async function vulnerabilitiesOfPackage(
  db: Kysely<DB>,
  ecosystem: string,
  name: string,
): Promise<VulnerabilityRow[]> {
  return db
    .selectFrom('vulnerabilities')
    .selectAll()
    .where('merged_into', 'is', null)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('osv_affected')
        .innerJoin('osv_advisories', 'osv_advisories.id', 'osv_affected.advisory_id')
        .select('osv_advisories.vulnerability_id')
        .where('osv_affected.ecosystem', '=', ecosystem)
        .where('osv_affected.name', '=', name)
        .where('osv_affected.withdrawn', '=', false),
    )
    .orderBy(sql`published_at DESC NULLS LAST`)
    .orderBy('id')
    .execute();
}

/** The tenant's versions of a package in use: (version, resolution) → repositories. */
export async function versionsInUse(db: Kysely<DB>, packageId: string) {
  return db
    .selectFrom('repository_dependencies')
    .select(['version', 'resolution'])
    .select((eb) => eb.fn.count<number>('repository_id').distinct().as('repositories'))
    .where('package_id', '=', packageId)
    .groupBy(['version', 'resolution'])
    .orderBy('version')
    .execute();
}

/** The tenant's exposures to a vulnerability, by status (tenant scope applies). */
export async function exposureCounts(db: Kysely<DB>, vulnerabilityId: string) {
  const rows = await db
    .selectFrom('vulnerability_exposures')
    .select(['status'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('vulnerability_id', '=', vulnerabilityId)
    .groupBy('status')
    .execute();
  const byStatus: Record<string, number> = {};
  for (const row of rows) byStatus[row.status] = Number(row.n);
  const total = rows.reduce((sum, row) => sum + Number(row.n), 0);
  const unresolved =
    (byStatus.open ?? 0) + (byStatus.investigating ?? 0) + (byStatus.affected ?? 0);
  return { total, unresolved, byStatus };
}
