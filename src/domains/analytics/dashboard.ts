import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { ALL_REPOSITORIES, utcDay } from './rollups';
import { healthScoreDistribution, type RankedRepository, readSummary } from './summary';

const CRITICALITIES = ['critical', 'high', 'medium', 'low'] as const;
const SCAN_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;

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

/** The ranked repositories with their current names (read live: a rename shows at once). */
async function namedTop(
  db: Kysely<DB>,
  byLibyear: RankedRepository[],
  byCritical: RankedRepository[],
) {
  const ids = [...new Set([...byLibyear, ...byCritical].map((row) => row.repositoryId))];
  const names = new Map<string, string>();
  if (ids.length > 0) {
    const rows = await db
      .selectFrom('repositories')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) names.set(row.id, row.name);
  }
  // A repository deleted since the summary was written is left out.
  const named = (row: RankedRepository) => names.has(row.repositoryId);
  return {
    byLibyear: byLibyear.filter(named).map((row) => ({
      repositoryId: row.repositoryId,
      name: names.get(row.repositoryId) as string,
      libyear: row.value,
    })),
    byCriticalExposures: byCritical.filter(named).map((row) => ({
      repositoryId: row.repositoryId,
      name: names.get(row.repositoryId) as string,
      critical: row.value,
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
  const summary = await readSummary(db);
  const top = await namedTop(db, summary.topByLibyear, summary.topByCritical);
  const { violations, alerts } = await openViolationsAndAlerts(db);
  const totals = summary.totals;
  const unresolved = totals
    ? totals.critical +
      totals.high +
      totals.medium +
      totals.low +
      totals.unrated +
      (totals.malicious ?? 0)
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
      byEcosystem: summary.byEcosystem,
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
      malicious: {
        unresolved: totals?.malicious ?? 0,
        repositories: totals?.malicious_repositories ?? 0,
      },
      byStatus: summary.byStatus,
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
    healthScores: summary.healthScores ?? (await healthScoreDistribution(db)),
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
