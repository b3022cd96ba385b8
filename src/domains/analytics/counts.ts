import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { FINAL_STATES } from '../scans/lifecycle';
import type { CountMetric } from './tables';

/**
 * The counts the dashboard once read live (repositories by criticality and by their last
 * finished scan's state, open violations by severity, open alerts), kept exact by the triggers of migration 0028: each
 * statement that changes a counted row appends its change to `analytics_count_changes` in the
 * same transaction; the rollup jobs fold those changes into `analytics_counts`, and the daily
 * pass recounts from the tables (docs/workspace.md#the-rollups).
 */

const CRITICALITIES = ['critical', 'high', 'medium', 'low'] as const;
const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

/** Folds and recounts of one tenant take turns (a recount must not lose a concurrent fold). */
const lockCounts = (db: Kysely<DB>) =>
  sql`SELECT pg_advisory_xact_lock(hashtextextended('analytics_counts:' || dw_current_tenant()::text, 0))`.execute(
    db,
  );

/** The folded counts plus the changes not folded yet, per metric and key. */
async function currentCounts(db: Kysely<DB>) {
  const { rows } = await sql<{ metric: CountMetric; key: string; n: number }>`
    SELECT metric, key, sum(n)::int AS n FROM (
      SELECT metric, key, n FROM analytics_counts
      UNION ALL SELECT metric, key, delta FROM analytics_count_changes) c
    GROUP BY 1, 2`.execute(db);
  return rows;
}

export async function readCounts(db: Kysely<DB>) {
  const byCriticality: Record<string, number> = {
    critical: 0,
    high: 0,
    medium: 0,
    low: 0,
    unset: 0,
  };
  const byLastScanState: Record<string, number> = { never: 0 };
  // A repository's last scan is its last finished one (migration 0035): final, or never.
  for (const state of FINAL_STATES) byLastScanState[state] = 0;
  const bySeverity: Record<string, number> = {};
  for (const severity of SEVERITIES) bySeverity[severity] = 0;
  let total = 0;
  let violationsOpen = 0;
  let alertsOpen = 0;
  for (const { metric, key, n } of await currentCounts(db)) {
    if (metric === 'repositories_by_criticality') {
      total += n;
      const criticality = (CRITICALITIES as readonly string[]).includes(key) ? key : 'unset';
      byCriticality[criticality] = (byCriticality[criticality] ?? 0) + n;
    } else if (metric === 'repositories_by_last_scan') {
      byLastScanState[key] = (byLastScanState[key] ?? 0) + n;
    } else if (metric === 'violations_open') {
      bySeverity[key] = (bySeverity[key] ?? 0) + n;
      violationsOpen += n;
    } else {
      alertsOpen += n;
    }
  }
  return {
    repositories: { total, byCriticality, byLastScanState },
    violations: { open: violationsOpen, bySeverity },
    alerts: { open: alertsOpen },
  };
}

/** Moves the tenant's pending changes into its counts (a fold: the sums do not change). */
export async function foldCountChanges(db: Kysely<DB>): Promise<void> {
  await lockCounts(db);
  // One statement: the changes it deletes are exactly the ones it adds.
  await sql`
    WITH folded AS (DELETE FROM analytics_count_changes RETURNING metric, key, delta)
    INSERT INTO analytics_counts (metric, key, n)
    SELECT metric, key, sum(delta)::int FROM folded GROUP BY 1, 2
    ON CONFLICT (tenant_id, metric, key) DO UPDATE SET n = analytics_counts.n + excluded.n`.execute(
    db,
  );
}

/**
 * Recounts the tenant's counts from the tables (the daily pass): in one statement, so the
 * changes it drops are exactly those its snapshot already counts; changes committed after it
 * stay pending.
 */
export async function recountCounts(db: Kysely<DB>): Promise<void> {
  await lockCounts(db);
  await sql`
    WITH dropped AS (DELETE FROM analytics_count_changes RETURNING 1),
    counted AS (SELECT metric, key, n FROM analytics_counted()),
    keys AS (SELECT metric, key FROM analytics_counts UNION SELECT metric, key FROM counted)
    INSERT INTO analytics_counts (metric, key, n)
    SELECT k.metric, k.key, coalesce(c.n, 0) FROM keys k LEFT JOIN counted c USING (metric, key)
    ON CONFLICT (tenant_id, metric, key) DO UPDATE SET n = excluded.n`.execute(db);
}
