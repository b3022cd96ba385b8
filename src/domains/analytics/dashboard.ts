import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { EXPOSURE_STATUSES } from '../exposures/tables';
import { ALL_REPOSITORIES, REPOSITORY_ROW, utcDay } from './rollups';

const CRITICALITIES = ['critical', 'high', 'medium', 'low'] as const;
const SCAN_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;

interface StateTotals {
  dependencies: number;
  direct: number;
  critical: number;
  high: number;
  medium: number;
  low: number;
  unrated: number;
  libyear: number;
  major_behind: number;
  minor_behind: number;
  patch_behind: number;
  deprecated: number;
  end_of_life: number;
}

/** Repositories by criticality and by the state of their last scan (live: one row each). */
async function repositoryCounts(db: Kysely<DB>) {
  const rows = await db
    .selectFrom('repositories as r')
    .leftJoin('scans as s', 's.id', 'r.last_scan_id')
    .select(['r.business_criticality as criticality', 's.state as state'])
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .groupBy(['r.business_criticality', 's.state'])
    .execute();
  const byCriticality: Record<string, number> = {
    critical: 0,
    high: 0,
    medium: 0,
    low: 0,
    unset: 0,
  };
  const byLastScanState: Record<string, number> = { never: 0 };
  for (const state of SCAN_STATES) byLastScanState[state] = 0;
  let total = 0;
  for (const row of rows) {
    const n = Number(row.n);
    total += n;
    const criticality = (CRITICALITIES as readonly string[]).includes(row.criticality ?? '')
      ? (row.criticality as string)
      : 'unset';
    byCriticality[criticality] = (byCriticality[criticality] ?? 0) + n;
    const state = row.state ?? 'never';
    byLastScanState[state] = (byLastScanState[state] ?? 0) + n;
  }
  return { total, byCriticality, byLastScanState };
}

async function stateTotals(db: Kysely<DB>) {
  const { rows } = await sql<StateTotals & { ecosystem: string | null }>`
    SELECT CASE WHEN grouping(ecosystem) = 1 THEN NULL ELSE ecosystem END AS ecosystem,
      coalesce(sum(dependencies), 0)::int AS dependencies, coalesce(sum(direct), 0)::int AS direct,
      coalesce(sum(exposures_critical), 0)::int AS critical, coalesce(sum(exposures_high), 0)::int AS high,
      coalesce(sum(exposures_medium), 0)::int AS medium, coalesce(sum(exposures_low), 0)::int AS low,
      coalesce(sum(exposures_unrated), 0)::int AS unrated, coalesce(sum(libyear), 0)::float8 AS libyear,
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
    .innerJoin('repositories as r', 'r.id', 's.repository_id')
    .select(['s.repository_id', 'r.name', 's.libyear'])
    .where('s.ecosystem', '=', REPOSITORY_ROW)
    .where('s.libyear', '>', 0)
    .orderBy('s.libyear', 'desc')
    .orderBy('s.repository_id')
    .limit(10)
    .execute();
  const byCritical = await sql<{ repository_id: string; name: string; critical: number }>`
    SELECT s.repository_id, r.name, s.critical FROM (
      SELECT repository_id, sum(exposures_critical)::int AS critical
      FROM analytics_repository_state GROUP BY repository_id
      HAVING sum(exposures_critical) > 0 ORDER BY 2 DESC, 1 LIMIT 10) s
    JOIN repositories r ON r.id = s.repository_id ORDER BY s.critical DESC, s.repository_id`.execute(
    db,
  );
  return {
    byLibyear: byLibyear.map((row) => ({
      repositoryId: row.repository_id,
      name: row.name,
      libyear: row.libyear,
    })),
    byCriticalExposures: byCritical.rows.map((row) => ({
      repositoryId: row.repository_id,
      name: row.name,
      critical: row.critical,
    })),
  };
}

/** Open violations by severity and open alerts (the tables of the policies and alerts domains). */
async function openViolationsAndAlerts(db: Kysely<DB>) {
  const violations = await db
    .selectFrom('policy_violations')
    .select(['severity', (eb) => eb.fn.countAll<string>().as('n')])
    .where('status', '=', 'open')
    .groupBy('severity')
    .execute();
  const alerts = await db
    .selectFrom('alerts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  const bySeverity: Record<string, number> = { critical: 0, high: 0, medium: 0, low: 0 };
  let open = 0;
  for (const row of violations) {
    bySeverity[row.severity] = (bySeverity[row.severity] ?? 0) + Number(row.n);
    open += Number(row.n);
  }
  return { violations: { open, bySeverity }, alerts: { open: Number(alerts.n) } };
}

interface Headline {
  dependencies: number;
  exposures_unresolved: number;
  exposures_critical: number;
  libyear: number | null;
  violations_open: number;
}

/** The tenant's sums as of the end of `day` (the latest daily row at or before it). */
async function headlineAt(db: Kysely<DB>, day: string): Promise<Headline | null> {
  const row = await db
    .selectFrom('analytics_daily')
    .select([
      'dependencies',
      'exposures_unresolved',
      'exposures_critical',
      'libyear',
      'violations_open',
    ])
    .where('repository_id', '=', ALL_REPOSITORIES)
    .where('ecosystem', '=', '')
    .where('day', '<=', day)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

const change = (current: number, then: number | null | undefined) =>
  then === null || then === undefined ? null : Math.round((current - then) * 1000) / 1000;

/** GET /api/v1/dashboards/global: from the rollups, plus the live counts that are cheap. */
export async function globalDashboard(db: Kysely<DB>, now = new Date()) {
  const repositories = await repositoryCounts(db);
  const state = await stateTotals(db);
  const byStatus = await exposuresByStatus(db);
  const top = await topRepositories(db);
  const { violations, alerts } = await openViolationsAndAlerts(db);
  const totals = state.total;
  const unresolved = totals
    ? totals.critical + totals.high + totals.medium + totals.low + totals.unrated
    : 0;
  const current: Headline = {
    dependencies: totals?.dependencies ?? 0,
    exposures_unresolved: unresolved,
    exposures_critical: totals?.critical ?? 0,
    libyear: totals?.libyear ?? 0,
    violations_open: violations.open,
  };
  const weekAgo = await headlineAt(db, utcDay(new Date(now.getTime() - 7 * 86_400_000)));
  const monthAgo = await headlineAt(db, utcDay(new Date(now.getTime() - 30 * 86_400_000)));
  const headline = (key: keyof Headline) => ({
    current: current[key] ?? 0,
    change7d: change(current[key] ?? 0, weekAgo?.[key]),
    change30d: change(current[key] ?? 0, monthAgo?.[key]),
  });
  return {
    generatedAtUtc: now.toISOString(),
    repositories,
    dependencies: {
      total: totals?.dependencies ?? 0,
      direct: totals?.direct ?? 0,
      transitive: (totals?.dependencies ?? 0) - (totals?.direct ?? 0),
      byEcosystem: state.byEcosystem,
    },
    exposures: {
      unresolved,
      bySeverity: {
        critical: totals?.critical ?? 0,
        high: totals?.high ?? 0,
        medium: totals?.medium ?? 0,
        low: totals?.low ?? 0,
        unrated: totals?.unrated ?? 0,
      },
      byStatus,
    },
    violations,
    alerts,
    drift: {
      libyearTotal: totals?.libyear ?? 0,
      majorBehind: totals?.major_behind ?? 0,
      minorBehind: totals?.minor_behind ?? 0,
      patchBehind: totals?.patch_behind ?? 0,
      deprecated: totals?.deprecated ?? 0,
      endOfLife: totals?.end_of_life ?? 0,
    },
    topRepositories: top,
    changes: {
      dependencies: headline('dependencies'),
      exposuresUnresolved: headline('exposures_unresolved'),
      exposuresCritical: headline('exposures_critical'),
      libyear: headline('libyear'),
      violationsOpen: headline('violations_open'),
    },
  };
}
