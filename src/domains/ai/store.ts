import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { FindingKind, SeverityRating } from '../../intel/osv/types';
import type { Reachability } from '../../intel/reachability/analyse';
import type { ExposureRow } from '../exposures/store';
import type { ExposureStatus } from '../exposures/tables';

/**
 * The reads the question intents need that the owning domains do not offer (a period, several
 * statuses at once, counts by a column). Each takes the request's tenant-scoped Kysely, so
 * row-level security bounds it like every other read; the question's text never reaches here,
 * only parameters that passed their intent's schema.
 */

export interface ExposureQuery {
  statuses?: readonly ExposureStatus[];
  severity?: SeverityRating | null;
  ecosystem?: string | null;
  repositoryId?: string | null;
  packageId?: string | null;
  version?: string | null;
  kind?: FindingKind | null;
  reachability?: Reachability | null;
  /** Which date the period bounds: when the exposure was first seen, fixed or last changed. */
  event?: 'opened' | 'fixed' | 'reopened' | null;
  from?: Date | null;
  to?: Date | null;
}

const EXPOSURE_COLUMNS = [
  'e.id',
  'e.repository_id',
  'e.package_id',
  'e.ecosystem',
  'e.package_name',
  'e.version',
  'e.vulnerability_id',
  'e.status',
  'e.reachability',
  'e.first_seen_at',
  'e.fixed_at',
  'e.reintroduced_count',
  'v.canonical_id',
  'v.severity_rating',
  'v.kind',
] as const;

export type QueriedExposure = Pick<
  ExposureRow,
  | 'id'
  | 'repository_id'
  | 'package_id'
  | 'ecosystem'
  | 'package_name'
  | 'version'
  | 'vulnerability_id'
  | 'status'
  | 'reachability'
  | 'first_seen_at'
  | 'fixed_at'
  | 'reintroduced_count'
  | 'canonical_id'
  | 'severity_rating'
  | 'kind'
>;

function exposureBase(db: Kysely<DB>, q: ExposureQuery) {
  const dated =
    q.event === 'fixed'
      ? 'e.fixed_at'
      : q.event === 'reopened'
        ? 'e.updated_at'
        : 'e.first_seen_at';
  return db
    .selectFrom('vulnerability_exposures as e')
    .innerJoin('vulnerabilities as v', 'v.id', 'e.vulnerability_id')
    .$if(Boolean(q.statuses?.length), (b) => b.where('e.status', 'in', [...(q.statuses ?? [])]))
    .$if(Boolean(q.severity), (b) => b.where('v.severity_rating', '=', q.severity ?? 'low'))
    .$if(Boolean(q.ecosystem), (b) => b.where('e.ecosystem', '=', q.ecosystem ?? ''))
    .$if(Boolean(q.repositoryId), (b) => b.where('e.repository_id', '=', q.repositoryId ?? ''))
    .$if(Boolean(q.packageId), (b) => b.where('e.package_id', '=', q.packageId ?? ''))
    .$if(Boolean(q.version), (b) => b.where('e.version', '=', q.version ?? ''))
    .$if(Boolean(q.kind), (b) => b.where('v.kind', '=', q.kind ?? 'vulnerability'))
    .$if(Boolean(q.reachability), (b) =>
      b.where('e.reachability', '=', q.reachability ?? 'unknown'),
    )
    .$if(q.event === 'reopened', (b) => b.where('e.reintroduced_count', '>', 0))
    .$if(Boolean(q.from), (b) => b.where(dated, '>=', q.from ?? new Date(0)))
    .$if(Boolean(q.to), (b) => b.where(dated, '<', q.to ?? new Date(0)));
}

/** The matching exposures (newest first, at most `take`) and how many match in all. */
export async function queryExposures(db: Kysely<DB>, q: ExposureQuery, take: number) {
  const rows = await exposureBase(db, q)
    .select(EXPOSURE_COLUMNS)
    .orderBy('e.first_seen_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(take)
    .execute();
  const counted = await exposureBase(db, q)
    .select((eb) => [
      eb.fn.countAll<string>().as('n'),
      eb.fn.count<string>('e.repository_id').distinct().as('repositories'),
    ])
    .executeTakeFirstOrThrow();
  return {
    rows: rows as QueriedExposure[],
    total: Number(counted.n),
    repositories: Number(counted.repositories),
  };
}

/** Counts of the matching exposures by one column. */
export async function countExposuresBy(
  db: Kysely<DB>,
  q: ExposureQuery,
  column: 'e.reachability' | 'v.severity_rating' | 'e.status' | 'e.ecosystem',
) {
  const rows = await exposureBase(db, q)
    .select([sql<string | null>`${sql.ref(column)}`.as('value')])
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .groupBy(column)
    .orderBy(sql`count(*)`, 'desc')
    .execute();
  return rows.map((r) => ({ value: r.value, count: Number(r.n) }));
}

/** Drift of the packages each repository currently uses (its current scan's snapshot). */
export async function driftedPackages(
  db: Kysely<DB>,
  metric: 'libyear' | 'versions_behind',
  ecosystem: string | null,
  take: number,
) {
  const order =
    metric === 'libyear'
      ? sql`sum(coalesce(d.libyear, 0))`
      : sql`max(coalesce(d.major_behind, 0) * 1000 + coalesce(d.minor_behind, 0))`;
  return db
    .selectFrom('dependency_drift as d')
    .innerJoin('repositories as r', (j) =>
      j.onRef('r.id', '=', 'd.repository_id').onRef('r.dependency_scan_id', '=', 'd.scan_id'),
    )
    .innerJoin('packages as p', 'p.id', 'd.package_id')
    .select(['p.id', 'p.ecosystem', 'p.name'])
    .select([
      sql<number>`round(sum(coalesce(d.libyear, 0))::numeric, 2)::float8`.as('libyear'),
      sql<number>`max(coalesce(d.major_behind, 0))`.as('major_behind'),
      sql<number>`max(coalesce(d.minor_behind, 0))`.as('minor_behind'),
      sql<string | null>`max(d.latest_stable)`.as('latest_stable'),
      sql<string[]>`array_agg(DISTINCT d.repository_id::text)`.as('repository_ids'),
      sql<string[]>`array_agg(DISTINCT d.used_version)`.as('versions'),
    ])
    .where('d.state', '=', 'measured')
    .$if(ecosystem !== null, (q) => q.where('p.ecosystem', '=', ecosystem ?? ''))
    .groupBy(['p.id', 'p.ecosystem', 'p.name'])
    .having(sql<boolean>`${order} > 0`)
    .orderBy(order, 'desc')
    .orderBy('p.name')
    .limit(take)
    .execute();
}

/** Each repository's latest drift snapshot, most drifted first. */
export async function driftedRepositories(
  db: Kysely<DB>,
  metric: 'libyear' | 'versions_behind',
  take: number,
) {
  const order =
    metric === 'libyear' ? sql`rd.libyear_total` : sql`rd.major_behind * 1000 + rd.minor_behind`;
  return db
    .selectFrom('repository_drift as rd')
    .innerJoin('repositories as r', (j) =>
      j.onRef('r.id', '=', 'rd.repository_id').onRef('r.dependency_scan_id', '=', 'rd.scan_id'),
    )
    .select([
      'r.id',
      'r.full_name',
      'rd.libyear_total',
      'rd.outdated_count',
      'rd.measured_count',
      'rd.major_behind',
      'rd.minor_behind',
      'rd.patch_behind',
    ])
    .orderBy(order, 'desc')
    .orderBy('r.full_name')
    .limit(take)
    .execute();
}

/**
 * Packages whose latest health score is below `below`, used at runtime (production) by the
 * tenant's repositories, optionally only those of the given business criticalities.
 */
export async function lowHealthPackages(
  db: Kysely<DB>,
  below: number,
  criticalities: readonly string[],
  take: number,
) {
  return db
    .selectFrom('repository_dependencies as d')
    .innerJoin('repositories as r', 'r.id', 'd.repository_id')
    .innerJoin('packages as p', 'p.id', 'd.package_id')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('package_health_snapshots as h')
          .select(['h.default_score', 'h.snapshot_date'])
          .whereRef('h.package_id', '=', 'p.id')
          .where('h.default_score', 'is not', null)
          .orderBy('h.snapshot_date', 'desc')
          .limit(1)
          .as('h'),
      (join) => join.onTrue(),
    )
    .select(['p.id', 'p.ecosystem', 'p.name', 'h.default_score'])
    .select([
      sql<string[]>`array_agg(DISTINCT r.id::text)`.as('repository_ids'),
      sql<string[]>`array_agg(DISTINCT r.full_name)`.as('repositories'),
    ])
    .where('d.scope', '=', 'runtime')
    .where('r.lifecycle_status', '!=', 'archived')
    .where('h.default_score', '<', below)
    .$if(criticalities.length > 0, (q) =>
      q.where('r.business_criticality', 'in', [...criticalities] as (
        | 'low'
        | 'medium'
        | 'high'
        | 'critical'
      )[]),
    )
    .groupBy(['p.id', 'p.ecosystem', 'p.name', 'h.default_score'])
    .orderBy('h.default_score')
    .orderBy('p.name')
    .limit(take)
    .execute();
}

/**
 * Dependencies a repository has now that it first had in [from, to): `dependency_first_seen`
 * (migration 0058) joined to the current generation, one row per repository and package, newest
 * first, at most `take`, and how many in all.
 */
export async function newDependencies(db: Kysely<DB>, from: Date, to: Date, take: number) {
  const base = db
    .selectFrom('dependency_first_seen as f')
    .innerJoin('repositories as r', 'r.id', 'f.repository_id')
    .innerJoin('packages as p', 'p.id', 'f.package_id')
    .where('f.first_seen_at', '>=', from)
    .where('f.first_seen_at', '<', to)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('repository_dependencies as d')
          .select('d.package_id')
          .whereRef('d.repository_id', '=', 'f.repository_id')
          .whereRef('d.package_id', '=', 'f.package_id'),
      ),
    );
  const rows = await base
    .select([
      'f.repository_id',
      'f.package_id',
      'f.first_seen_at',
      'f.first_seen_scan_id',
      'r.full_name',
      'p.ecosystem',
      'p.name',
    ])
    .select((eb) =>
      eb
        .selectFrom('repository_dependencies as d')
        .select((sb) => sb.fn.min('d.version').as('v'))
        .whereRef('d.repository_id', '=', 'f.repository_id')
        .whereRef('d.package_id', '=', 'f.package_id')
        .as('version'),
    )
    .orderBy('f.first_seen_at', 'desc')
    .orderBy('r.full_name')
    .orderBy('p.name')
    .limit(take)
    .execute();
  const counted = await base
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(counted.n) };
}
