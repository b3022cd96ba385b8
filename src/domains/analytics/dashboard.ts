import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { readCounts } from './counts';
import { quantumReadiness } from './quantum-readiness';
import { ALL_REPOSITORIES, utcDay } from './rollups';
import { healthScoreDistribution, type RankedRepository, readSummary } from './summary';

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

/** The numbers whose change over 7 and 30 days the dashboard reports (daily row columns). */
const HEADLINES = {
  repositories: 'repositories',
  dependencies: 'dependencies',
  exposuresUnresolved: 'exposures_unresolved',
  exposuresCritical: 'exposures_critical',
  libyear: 'libyear',
  violationsOpen: 'violations_open',
  alertsOpen: 'alerts_open',
  majorBehind: 'major_behind',
  minorBehind: 'minor_behind',
  patchBehind: 'patch_behind',
  deprecated: 'deprecated',
  endOfLife: 'end_of_life',
} as const;

type HeadlineName = keyof typeof HEADLINES;
type Headline = Record<HeadlineName, number | null>;

/** The tenant's sums as of the end of `day` (the latest daily row at or before it). */
async function headlineAt(db: Kysely<DB>, day: string): Promise<Headline | null> {
  const row = await db
    .selectFrom('analytics_daily')
    .select(Object.values(HEADLINES))
    .where('repository_id', '=', ALL_REPOSITORIES)
    .where('ecosystem', '=', '')
    .where('day', '<=', day)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const named = {} as Headline;
  for (const [name, column] of Object.entries(HEADLINES) as [HeadlineName, keyof typeof row][]) {
    named[name] = row[column];
  }
  return named;
}

const change = (current: number, then: number | null | undefined) =>
  then === null || then === undefined ? null : Math.round((current - then) * 1000) / 1000;

/** Each headline now, and its change against the tenant's daily rows of 7 and 30 days ago. */
async function headlineChanges(db: Kysely<DB>, current: Record<HeadlineName, number>, now: Date) {
  const weekAgo = await headlineAt(db, utcDay(new Date(now.getTime() - 7 * 86_400_000)));
  const monthAgo = await headlineAt(db, utcDay(new Date(now.getTime() - 30 * 86_400_000)));
  const changes = {} as Record<
    HeadlineName,
    { current: number; change7d: number | null; change30d: number | null }
  >;
  for (const name of Object.keys(HEADLINES) as HeadlineName[]) {
    changes[name] = {
      current: current[name],
      change7d: change(current[name], weekAgo?.[name]),
      change30d: change(current[name], monthAgo?.[name]),
    };
  }
  return changes;
}

/**
 * GET /api/v1/dashboards/global: from the rollups only (the summary row, the trigger-kept counts,
 * two daily rows) plus the names of the top repositories, each an indexed read.
 */
export async function globalDashboard(
  db: Kysely<DB>,
  options: { quantum: boolean },
  now = new Date(),
) {
  const { repositories, violations, alerts } = await readCounts(db);
  const summary = await readSummary(db);
  const top = await namedTop(db, summary.topByLibyear, summary.topByCritical);
  const totals = summary.totals;
  const unresolved = totals
    ? totals.critical +
      totals.high +
      totals.medium +
      totals.low +
      totals.unrated +
      (totals.malicious ?? 0)
    : 0;
  const drift = {
    libyearTotal: totals?.libyear ?? 0,
    majorBehind: totals?.major_behind ?? 0,
    minorBehind: totals?.minor_behind ?? 0,
    patchBehind: totals?.patch_behind ?? 0,
    deprecated: totals?.deprecated ?? 0,
    endOfLife: totals?.end_of_life ?? 0,
  };
  const current: Record<HeadlineName, number> = {
    repositories: repositories.total,
    dependencies: totals?.dependencies ?? 0,
    exposuresUnresolved: unresolved,
    exposuresCritical: totals?.critical ?? 0,
    libyear: drift.libyearTotal,
    violationsOpen: violations.open,
    alertsOpen: alerts.open,
    majorBehind: drift.majorBehind,
    minorBehind: drift.minorBehind,
    patchBehind: drift.patchBehind,
    deprecated: drift.deprecated,
    endOfLife: drift.endOfLife,
  };
  const changes = await headlineChanges(db, current, now);
  const quantum = options.quantum ? await quantumDashboard(db, now) : null;
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
    drift,
    healthScores: summary.healthScores ?? (await healthScoreDistribution(db)),
    topRepositories: top,
    quantum,
    changes,
  };
}

/** The tenant's readiness with its repositories' (only for plans with the `quantum` feature). */
async function quantumDashboard(db: Kysely<DB>, now: Date) {
  const { tenant, repositories } = await quantumReadiness(db, now);
  return { ...tenant, repositories };
}
