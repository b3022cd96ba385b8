import { sql } from 'kysely';
import type { Database } from '../../../db/connection';
import { readQueueStats } from '../../../jobs/queue-stats';
import type { ComponentId, MeasuredState } from '../tables';
import type { ResponseWindow } from './response-window';

/** One component's reading: the raw state it implies, the numbers, and a sentence for people. */
export interface Reading {
  state: MeasuredState;
  measurement: Record<string, number | null>;
  detail: string;
}

/** Thresholds (docs/status.md#components). Ratios need a minimum sample to mean anything. */
export const THRESHOLDS = {
  api: { minRequests: 20, degraded: 0.05, outage: 0.25, windowMs: 5 * 60_000 },
  databaseProbeMs: { degraded: 500 },
  queueLagSeconds: { degraded: 300, outage: 1800 },
  osvAgeHours: { degraded: 26, outage: 72 },
  fetchFailures: { minAttempts: 5, degraded: 0.2, outage: 0.5, windowMinutes: 60 },
  scanFailures: { minFailingTenants: 2, degraded: 0.2, outage: 0.5, windowMinutes: 60 },
} as const;

const ratioState = (
  failed: number,
  total: number,
  limits: { degraded: number; outage: number },
  minimum: number,
): MeasuredState => {
  if (total < minimum) return 'operational';
  const ratio = failed / total;
  if (ratio >= limits.outage) return 'outage';
  return ratio >= limits.degraded ? 'degraded' : 'operational';
};

const percent = (failed: number, total: number) =>
  total === 0 ? '0 %' : `${Math.round((failed / total) * 100)} %`;

export function readApi(window: ResponseWindow, now: number): Reading {
  const { total, serverErrors } = window.read(now);
  const t = THRESHOLDS.api;
  return {
    state: ratioState(serverErrors, total, t, t.minRequests),
    measurement: { requests: total, serverErrors },
    detail: `${percent(serverErrors, total)} of ${total} requests in the last 5 minutes failed with a server error`,
  };
}

export async function readDatabase(database: Database): Promise<Reading> {
  const started = performance.now();
  try {
    await sql`SELECT 1`.execute(database.system);
  } catch {
    return {
      state: 'outage',
      measurement: { probeMs: null },
      detail: 'the database does not answer',
    };
  }
  const probeMs = Math.round(performance.now() - started);
  return {
    state: probeMs >= THRESHOLDS.databaseProbeMs.degraded ? 'degraded' : 'operational',
    measurement: { probeMs },
    detail: `a probe query took ${probeMs} ms`,
  };
}

export async function readJobWorkers(database: Database): Promise<Reading> {
  let lag: number;
  try {
    const queues = await readQueueStats(database.pool);
    lag = Math.max(0, ...queues.map((queue) => queue.oldestWaitingSeconds));
  } catch {
    // No job queue schema yet: no worker has ever started against this database.
    return {
      state: 'unknown',
      measurement: { lagSeconds: null },
      detail: 'no job worker has started yet',
    };
  }
  const t = THRESHOLDS.queueLagSeconds;
  const state: MeasuredState =
    lag >= t.outage ? 'outage' : lag >= t.degraded ? 'degraded' : 'operational';
  return {
    state,
    measurement: { lagSeconds: Math.round(lag) },
    detail: `the oldest waiting job has waited ${Math.round(lag)} s`,
  };
}

/**
 * The age of the vulnerability data: since the last good check of any feed (a failed check keeps
 * the time of the last import) or the newest advisory's own modification time, whichever is
 * later, so advisories imported from files (`admin import-osv`, no feed) count too.
 */
export async function readVulnerabilityData(database: Database): Promise<Reading> {
  const { rows } = await sql<{ age: number | null }>`
    SELECT EXTRACT(EPOCH FROM now() - GREATEST(
      (SELECT max(CASE WHEN last_status <> 'failed' THEN last_checked_at ELSE last_changed_at END)
         FROM osv_feed_state),
      (SELECT max(modified_at) FROM osv_advisories)))::float8 AS age`.execute(database.system);
  const age = rows[0]?.age ?? null;
  if (age === null) {
    return {
      state: 'unknown',
      measurement: { ageHours: null },
      detail: 'no vulnerability data yet (no OSV sync or import has run)',
    };
  }
  const hours = Math.max(0, Math.round((age / 3600) * 10) / 10);
  const t = THRESHOLDS.osvAgeHours;
  const state: MeasuredState =
    hours >= t.outage ? 'outage' : hours >= t.degraded ? 'degraded' : 'operational';
  return {
    state,
    measurement: { ageHours: hours },
    detail: `the vulnerability data is ${hours} h old`,
  };
}

export async function readRegistryMetadata(database: Database): Promise<Reading> {
  const t = THRESHOLDS.fetchFailures;
  const row = await database.system
    .selectFrom('package_enrichment')
    .select([
      sql<number>`count(*)::int`.as('total'),
      // A registry that never answered failed the fetch as much as one whose answer was unusable.
      sql<number>`count(*) FILTER (WHERE last_outcome IN ('failed', 'unreachable'))::int`.as(
        'failed',
      ),
    ])
    .where('last_attempt_at', '>', sql<Date>`now() - make_interval(mins => ${t.windowMinutes})`)
    .executeTakeFirstOrThrow();
  return {
    state: ratioState(row.failed, row.total, t, t.minAttempts),
    measurement: { fetches: row.total, failed: row.failed },
    detail: `${percent(row.failed, row.total)} of ${row.total} registry fetches in the last hour failed`,
  };
}

/**
 * Source-control ingest, from what the service controls: scans that failed for the tenant's
 * own repository (failure_cause 'input': gone, refused, bad credentials...) count neither way,
 * demo tenants (anyone can make one) are left out, and every tenant weighs the same — the share
 * is the mean of each tenant's share of service failures — so no single tenant's volume sets
 * it. Below MIN_FAILING_TENANTS tenants with such a failure the component stays operational:
 * one tenant never moves the public page. The detail gives no counts of tenants' scans.
 */
export async function readSourceControlIngest(database: Database): Promise<Reading> {
  const t = THRESHOLDS.scanFailures;
  const { rows } = await sql<{ tenants: number; failing: number; share: number }>`
    WITH per_tenant AS (
      SELECT s.tenant_id, count(*) AS total, count(*) FILTER (WHERE s.state = 'failed') AS failed
        FROM scans s JOIN tenants ten ON ten.id = s.tenant_id
       WHERE s.trigger <> 'sbom' AND s.state IN ('completed', 'failed')
         AND s.failure_cause IS DISTINCT FROM 'input' AND NOT ten.is_demo
         AND s.finished_at > now() - make_interval(mins => ${t.windowMinutes})
       GROUP BY s.tenant_id)
    SELECT count(*)::int AS tenants, count(*) FILTER (WHERE failed > 0)::int AS failing,
           COALESCE(avg(failed::float8 / total), 0)::float8 AS share
      FROM per_tenant`.execute(database.system);
  const row = rows[0] ?? { tenants: 0, failing: 0, share: 0 };
  const counted = row.failing >= t.minFailingTenants;
  const state = counted ? ratioState(row.share, 1, t, 0) : 'operational';
  return {
    state,
    measurement: { tenants: row.tenants, failingTenants: row.failing, share: row.share },
    detail: counted
      ? `${percent(row.share, 1)} of repository scans in the last hour failed for reasons of the service (each tenant weighing the same)`
      : 'no repository scans of several tenants failed for reasons of the service in the last hour',
  };
}

export async function readAll(
  database: Database,
  window: ResponseWindow,
  now: number,
): Promise<Record<ComponentId, Reading>> {
  const [db, jobs, vulns, registry, scm] = await Promise.all([
    readDatabase(database),
    readJobWorkers(database),
    readVulnerabilityData(database),
    readRegistryMetadata(database),
    readSourceControlIngest(database),
  ]);
  return {
    api: readApi(window, now),
    database: db,
    'job-workers': jobs,
    'vulnerability-data': vulns,
    'registry-metadata': registry,
    'source-control-ingest': scm,
  };
}
