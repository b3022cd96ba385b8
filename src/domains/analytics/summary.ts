import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { EXPOSURE_STATUSES } from '../exposures/tables';
import { COUNTED_DEPENDENCY_SQL } from '../repositories/counted-dependencies';
import { REPOSITORY_ROW } from './rollups';

/**
 * The dashboard's per-tenant summary (docs/workspace.md#the-rollups): the sums of the tenant's
 * `analytics_repository_state` rows, stored as one row of `analytics_tenant_summary` by the
 * rollup jobs right after they change the state rows, so the dashboard reads one row.
 */
export interface StateTotals {
  dependencies: number;
  direct: number;
  critical: number;
  high: number;
  medium: number;
  low: number;
  unrated: number;
  /** Malicious-package exposures, kept out of the severities; absent in summaries from before. */
  malicious?: number;
  malicious_repositories?: number;
  libyear: number;
  major_behind: number;
  minor_behind: number;
  patch_behind: number;
  deprecated: number;
  end_of_life: number;
}

export interface RankedRepository {
  repositoryId: string;
  value: number;
}

export interface DashboardSummary {
  totals: StateTotals | null;
  byEcosystem: Array<{ ecosystem: string; total: number; direct: number; transitive: number }>;
  byStatus: Record<string, number>;
  topByLibyear: RankedRepository[];
  topByCritical: RankedRepository[];
  /** Absent in summaries written before it existed. */
  healthScores?: HealthScoreDistribution;
}

/** Distinct packages the tenant depends on, by their latest health score (default weights). */
export interface HealthScoreDistribution {
  packages: number;
  buckets: Array<{ from: number; to: number; packages: number }>;
  unscored: number;
}

const HEALTH_BUCKETS = [
  [0, 19],
  [20, 39],
  [40, 59],
  [60, 79],
  [80, 100],
] as const;

async function stateTotals(db: Kysely<DB>) {
  const { rows } = await sql<StateTotals & { ecosystem: string | null }>`
    SELECT CASE WHEN grouping(ecosystem) = 1 THEN NULL ELSE ecosystem END AS ecosystem,
      coalesce(sum(dependencies), 0)::int AS dependencies, coalesce(sum(direct), 0)::int AS direct,
      coalesce(sum(exposures_critical), 0)::int AS critical, coalesce(sum(exposures_high), 0)::int AS high,
      coalesce(sum(exposures_medium), 0)::int AS medium, coalesce(sum(exposures_low), 0)::int AS low,
      coalesce(sum(exposures_unrated), 0)::int AS unrated,
      coalesce(sum(exposures_malicious), 0)::int AS malicious,
      count(DISTINCT repository_id) FILTER (WHERE exposures_malicious > 0)::int AS malicious_repositories,
      coalesce(sum(libyear), 0)::float8 AS libyear,
      coalesce(sum(major_behind), 0)::int AS major_behind, coalesce(sum(minor_behind), 0)::int AS minor_behind,
      coalesce(sum(patch_behind), 0)::int AS patch_behind, coalesce(sum(deprecated), 0)::int AS deprecated,
      coalesce(sum(end_of_life), 0)::int AS end_of_life
    FROM analytics_repository_state GROUP BY GROUPING SETS ((ecosystem), ())`.execute(db);
  const total = rows.find((row) => row.ecosystem === null);
  const byEcosystem = rows
    .filter((row) => row.ecosystem !== null && row.ecosystem !== REPOSITORY_ROW)
    .map((row) => ({
      ecosystem: row.ecosystem as string,
      total: row.dependencies,
      direct: row.direct,
      transitive: row.dependencies - row.direct,
    }))
    .sort((a, b) => b.total - a.total || a.ecosystem.localeCompare(b.ecosystem));
  return { total, byEcosystem };
}

/** Summed per known status (one pass, no row per JSON key: measured cheaper on 30,000 rows). */
async function exposuresByStatus(db: Kysely<DB>): Promise<Record<string, number>> {
  const sums = EXPOSURE_STATUSES.map(
    (status) =>
      sql`coalesce(sum((exposures_by_status ->> ${status})::int), 0)::int AS ${sql.ref(status)}`,
  );
  const { rows } = await sql<Record<string, number>>`SELECT ${sql.join(sums)}
    FROM analytics_repository_state`.execute(db);
  const totals = rows[0] ?? {};
  return Object.fromEntries(
    EXPOSURE_STATUSES.filter((status) => (totals[status] ?? 0) > 0).map((status) => [
      status,
      totals[status] ?? 0,
    ]),
  );
}

async function topRepositories(db: Kysely<DB>) {
  const byLibyear = await db
    .selectFrom('analytics_repository_state as s')
    .select(['s.repository_id', 's.libyear'])
    .where('s.ecosystem', '=', REPOSITORY_ROW)
    .where('s.libyear', '>', 0)
    .orderBy('s.libyear', 'desc')
    .orderBy('s.repository_id')
    .limit(10)
    .execute();
  const byCritical = await sql<{ repository_id: string; critical: number }>`
    SELECT repository_id, sum(exposures_critical)::int AS critical
    FROM analytics_repository_state GROUP BY repository_id
    HAVING sum(exposures_critical) > 0 ORDER BY 2 DESC, 1 LIMIT 10`.execute(db);
  return {
    topByLibyear: byLibyear.map((row) => ({ repositoryId: row.repository_id, value: row.libyear })),
    topByCritical: byCritical.rows.map((row) => ({
      repositoryId: row.repository_id,
      value: row.critical,
    })),
  };
}

/**
 * The health score distribution of the packages the tenant depends on (the project's own
 * packages left out): each package once, at its latest snapshot's default-weights score; a
 * package never scored (no registry metadata yet) is `unscored`.
 */
export async function healthScoreDistribution(db: Kysely<DB>): Promise<HealthScoreDistribution> {
  const { rows } = await sql<{ bucket: number | null; packages: number }>`
    WITH used AS (
      SELECT DISTINCT package_id FROM repository_dependencies WHERE ${sql.raw(COUNTED_DEPENDENCY_SQL)}
    ), latest AS (
      SELECT u.package_id, (
        SELECT h.default_score FROM package_health_snapshots h
        WHERE h.package_id = u.package_id ORDER BY h.snapshot_date DESC LIMIT 1) AS score
      FROM used u
    )
    SELECT CASE WHEN score IS NULL THEN NULL ELSE least(score::int / 20, 4) END AS bucket,
      count(*)::int AS packages
    FROM latest GROUP BY 1`.execute(db);
  const count = (bucket: number | null) => rows.find((row) => row.bucket === bucket)?.packages ?? 0;
  return {
    packages: rows.reduce((sum, row) => sum + row.packages, 0),
    buckets: HEALTH_BUCKETS.map(([from, to], i) => ({ from, to, packages: count(i) })),
    unscored: count(null),
  };
}

/** The summary computed from the state rows now. */
export async function computeSummary(db: Kysely<DB>): Promise<DashboardSummary> {
  const state = await stateTotals(db);
  const byStatus = await exposuresByStatus(db);
  const top = await topRepositories(db);
  return {
    totals: state.total ?? null,
    byEcosystem: state.byEcosystem,
    byStatus,
    ...top,
    healthScores: await healthScoreDistribution(db),
  };
}

/** Rewrites the tenant's summary (in the rollup job's tenant transaction). */
export async function refreshTenantSummary(db: Kysely<DB>): Promise<void> {
  const data = JSON.stringify(await computeSummary(db));
  await db
    .insertInto('analytics_tenant_summary')
    .values({ data })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ data, updated_at: sql<Date>`now()` }))
    .execute();
}

/**
 * The stored summary; computed on the spot when the tenant has none yet (a tenant whose rollups
 * have not run since the summary table was added).
 */
export async function readSummary(db: Kysely<DB>): Promise<DashboardSummary> {
  const row = await db.selectFrom('analytics_tenant_summary').select('data').executeTakeFirst();
  if (row) return row.data as unknown as DashboardSummary;
  return computeSummary(db);
}
