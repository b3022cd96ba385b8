import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { COUNTED_DEPENDENCY_SQL } from '../repositories/counted-dependencies';
import type { FixesBySeverity } from './tables';

/** repository_id of the rows that sum every repository. */
export const ALL_REPOSITORIES = '00000000-0000-0000-0000-000000000000';
/** ecosystem of a repository's own state row (drift totals are kept per repository). */
export const REPOSITORY_ROW = '*';

const UNRESOLVED = sql`('open', 'investigating', 'affected')`;
/** An unresolved vulnerability (malicious packages are counted apart: `exposures_malicious`). */
const VULN = sql`e.status IN ${UNRESOLVED} AND v.kind IS DISTINCT FROM 'malicious'`;

/**
 * Recomputes the current-state rollup of one repository (or all of them) from the stored
 * dependencies, exposures and the latest drift snapshot, in the caller's tenant transaction.
 */
export async function refreshRepositoryState(
  db: Kysely<DB>,
  repositoryId: string | null,
): Promise<void> {
  const only = (column: RawBuilder<unknown>) =>
    repositoryId === null ? sql`true` : sql`${column} = ${repositoryId}::uuid`;
  await db
    .deleteFrom('analytics_repository_state')
    .$if(repositoryId !== null, (q) => q.where('repository_id', '=', repositoryId ?? ''))
    .execute();
  await sql`
    WITH deps AS (
      SELECT repository_id, ecosystem, count(*)::int AS dependencies,
        count(*) FILTER (WHERE direct)::int AS direct
      FROM repository_dependencies
      -- The project's own package (scope self) is stored but is no dependency.
      WHERE ${only(sql.ref('repository_id'))} AND ${sql.raw(COUNTED_DEPENDENCY_SQL)} GROUP BY 1, 2
    ), exposures AS (
      SELECT e.repository_id, e.ecosystem,
        count(*) FILTER (WHERE ${VULN} AND v.severity_rating = 'critical')::int AS critical,
        count(*) FILTER (WHERE ${VULN} AND v.severity_rating = 'high')::int AS high,
        count(*) FILTER (WHERE ${VULN} AND v.severity_rating = 'medium')::int AS medium,
        count(*) FILTER (WHERE ${VULN} AND v.severity_rating = 'low')::int AS low,
        count(*) FILTER (WHERE ${VULN} AND (v.severity_rating IS NULL
          OR v.severity_rating NOT IN ('critical', 'high', 'medium', 'low')))::int AS unrated,
        count(*) FILTER (WHERE e.status IN ${UNRESOLVED} AND v.kind = 'malicious')::int AS malicious
      FROM vulnerability_exposures e LEFT JOIN vulnerabilities v ON v.id = e.vulnerability_id
      WHERE ${only(sql.ref('e.repository_id'))} GROUP BY 1, 2
    ), statuses AS (
      SELECT repository_id, ecosystem, jsonb_object_agg(status, n) AS by_status
      FROM (SELECT repository_id, ecosystem, status, count(*)::int AS n FROM vulnerability_exposures
            WHERE ${only(sql.ref('repository_id'))} GROUP BY 1, 2, 3) s
      GROUP BY 1, 2
    ), drift AS (
      SELECT r.id AS repository_id, ${REPOSITORY_ROW}::text AS ecosystem,
        coalesce(d.libyear_total, 0) AS libyear, coalesce(d.major_behind, 0) AS major_behind,
        coalesce(d.minor_behind, 0) AS minor_behind, coalesce(d.patch_behind, 0) AS patch_behind,
        coalesce(d.deprecated_count, 0) AS deprecated, coalesce(d.end_of_life_count, 0) AS end_of_life
      FROM repositories r
      LEFT JOIN LATERAL (SELECT * FROM repository_drift x WHERE x.repository_id = r.id
                         ORDER BY x.scanned_at DESC LIMIT 1) d ON true
      WHERE ${only(sql.ref('r.id'))}
    ), ecosystem_drift AS (
      SELECT r.id AS repository_id, p.ecosystem, coalesce(sum(dd.libyear), 0)::float8 AS libyear
      FROM repositories r
      JOIN LATERAL (SELECT scan_id FROM repository_drift x WHERE x.repository_id = r.id
                    ORDER BY x.scanned_at DESC LIMIT 1) d ON true
      JOIN dependency_drift dd ON dd.repository_id = r.id AND dd.scan_id = d.scan_id
      JOIN packages p ON p.id = dd.package_id
      WHERE ${only(sql.ref('r.id'))} GROUP BY 1, 2
    ), keys AS (
      SELECT repository_id, ecosystem FROM deps
      UNION SELECT repository_id, ecosystem FROM exposures
      UNION SELECT repository_id, ecosystem FROM drift
      UNION SELECT repository_id, ecosystem FROM ecosystem_drift
    )
    INSERT INTO analytics_repository_state (repository_id, ecosystem, dependencies, direct,
      exposures_critical, exposures_high, exposures_medium, exposures_low, exposures_unrated,
      exposures_malicious, exposures_by_status, libyear, ecosystem_libyear, major_behind, minor_behind, patch_behind, deprecated, end_of_life)
    SELECT k.repository_id, k.ecosystem, coalesce(deps.dependencies, 0), coalesce(deps.direct, 0),
      coalesce(x.critical, 0), coalesce(x.high, 0), coalesce(x.medium, 0), coalesce(x.low, 0),
      coalesce(x.unrated, 0), coalesce(x.malicious, 0), coalesce(s.by_status, '{}'::jsonb), coalesce(d.libyear, 0),
      coalesce(ed.libyear, 0),
      coalesce(d.major_behind, 0), coalesce(d.minor_behind, 0), coalesce(d.patch_behind, 0),
      coalesce(d.deprecated, 0), coalesce(d.end_of_life, 0)
    FROM keys k
    JOIN repositories r ON r.id = k.repository_id
    LEFT JOIN deps USING (repository_id, ecosystem)
    LEFT JOIN exposures x USING (repository_id, ecosystem)
    LEFT JOIN statuses s USING (repository_id, ecosystem)
    LEFT JOIN drift d USING (repository_id, ecosystem)
    LEFT JOIN ecosystem_drift ed USING (repository_id, ecosystem)`.execute(db);
}

/** Which daily rows to write: the tenant's sums, one repository's, or every repository's too. */
export type DailyScope =
  | { kind: 'tenant' }
  | { kind: 'repository'; repositoryId: string }
  | { kind: 'all' };

function groupingSets(scope: DailyScope, extra = '') {
  const tail = extra ? `, ${extra}` : '';
  const tenant = [`(ecosystem${tail})`, `(${extra})`];
  const repository = [`(repository_id, ecosystem${tail})`, `(repository_id${tail})`];
  const sets =
    scope.kind === 'tenant'
      ? tenant
      : scope.kind === 'repository'
        ? repository
        : [...repository, ...tenant];
  return sql.raw(`GROUPING SETS (${sets.join(', ')})`);
}

const scopeFilter = (scope: DailyScope) =>
  scope.kind === 'repository' ? sql`repository_id = ${scope.repositoryId}::uuid` : sql`true`;

// grouping() only takes grouped columns: tenant sums never group by repository.
const keyColumns = (scope: DailyScope) => sql`
  ${scope.kind === 'tenant' ? sql`${ALL_REPOSITORIES}::uuid` : sql`CASE WHEN grouping(repository_id) = 1 THEN ${ALL_REPOSITORIES}::uuid ELSE repository_id END`} AS repo,
  CASE WHEN grouping(ecosystem) = 1 THEN '' ELSE ecosystem END AS eco`;

// A grouped row keyed by a missing ecosystem (a scan that found none) or by the repository's own
// row is not an ecosystem.
const realEcosystem = sql`NOT (grouping(ecosystem) = 0 AND (ecosystem IS NULL OR ecosystem = ${REPOSITORY_ROW}))`;

/** Drift counts of a daily row (all-ecosystems rows; null on one ecosystem's). */
interface DriftCounts {
  major_behind: number | null;
  minor_behind: number | null;
  patch_behind: number | null;
  deprecated: number | null;
  end_of_life: number | null;
}

interface DailyRow extends DriftCounts {
  dependencies: number;
  direct: number;
  libyear: number | null;
  exposures_unresolved: number;
  exposures_critical: number;
  exposures_high: number;
  exposures_medium: number;
  exposures_low: number;
  violations_open: number;
  exposures_opened: number;
  exposures_fixed: number;
  fixes: FixesBySeverity;
  scans: number;
  repositories: number;
  alerts_open: number | null;
}

const emptyRow = (): DailyRow => ({
  dependencies: 0,
  direct: 0,
  libyear: null,
  exposures_unresolved: 0,
  exposures_critical: 0,
  exposures_high: 0,
  exposures_medium: 0,
  exposures_low: 0,
  violations_open: 0,
  exposures_opened: 0,
  exposures_fixed: 0,
  fixes: {},
  scans: 0,
  repositories: 0,
  alerts_open: null,
  major_behind: null,
  minor_behind: null,
  patch_behind: null,
  deprecated: null,
  end_of_life: null,
});

const DRIFT_COUNTS = [
  'major_behind',
  'minor_behind',
  'patch_behind',
  'deprecated',
  'end_of_life',
] as const;

const NO_DRIFT: DriftCounts = {
  major_behind: 0,
  minor_behind: 0,
  patch_behind: 0,
  deprecated: 0,
  end_of_life: 0,
};

// Kept per repository (its own row): summed over all ecosystems, not split per ecosystem.
const driftCount = (column: string) =>
  sql`CASE WHEN grouping(ecosystem) = 1 THEN coalesce(sum(${sql.ref(column)}), 0) END::int AS ${sql.ref(column)}`;

interface Keyed {
  repo: string;
  eco: string;
}

/** The day's gauges for the scope, from the current-state rollup (analytics_repository_state). */
async function addGauges(
  db: Kysely<DB>,
  scope: DailyScope,
  row: (key: Keyed) => DailyRow & Keyed,
): Promise<void> {
  const filter = scopeFilter(scope);
  const keys = keyColumns(scope);
  const gauges = await sql<
    Keyed &
      DriftCounts & {
        deps: number;
        direct: number;
        libyear: number | null;
        unresolved: number;
        critical: number;
        high: number;
        medium: number;
        low: number;
        repositories: number;
      }
  >`
    SELECT ${keys}, coalesce(sum(dependencies), 0)::int AS deps, coalesce(sum(direct), 0)::int AS direct,
      -- All ecosystems: the repositories' drift totals; one ecosystem: its dependencies' libyear.
      CASE WHEN grouping(ecosystem) = 1 THEN coalesce(sum(libyear), 0)
        ELSE coalesce(sum(ecosystem_libyear), 0) END::float8 AS libyear,
      coalesce(sum(exposures_critical + exposures_high + exposures_medium + exposures_low + exposures_unrated + exposures_malicious), 0)::int AS unresolved,
      coalesce(sum(exposures_critical), 0)::int AS critical,
      coalesce(sum(exposures_high), 0)::int AS high,
      coalesce(sum(exposures_medium), 0)::int AS medium,
      coalesce(sum(exposures_low), 0)::int AS low,
      -- Every repository has its own row: all ecosystems count each; one ecosystem, those using it.
      count(DISTINCT repository_id)::int AS repositories,
      ${sql.join(DRIFT_COUNTS.map(driftCount))}
    FROM analytics_repository_state WHERE ${filter}
    GROUP BY ${groupingSets(scope)} HAVING ${realEcosystem}`.execute(db);
  for (const { deps, unresolved, critical, high, medium, low, repo, eco, ...g } of gauges.rows) {
    Object.assign(row({ repo, eco }), {
      ...g,
      dependencies: deps,
      exposures_unresolved: unresolved,
      exposures_critical: critical,
      exposures_high: high,
      exposures_medium: medium,
      exposures_low: low,
    });
  }
}

/**
 * Writes the day's rows for the scope: gauges from the current-state rollup and the open
 * violations, flows (exposures opened and fixed with their time to fix, completed scans) counted
 * from the stored timestamps of that UTC day. Safe to repeat: each run replaces the day's rows.
 */
export async function writeDailyRows(
  db: Kysely<DB>,
  day: string,
  scope: DailyScope,
): Promise<number> {
  const rows = new Map<string, DailyRow & Keyed>();
  const row = (key: Keyed) => {
    const id = `${key.repo}|${key.eco}`;
    let found = rows.get(id);
    if (!found) {
      found = { ...emptyRow(), repo: key.repo, eco: key.eco };
      rows.set(id, found);
    }
    return found;
  };
  const start = sql`(${day}::date)::timestamp AT TIME ZONE 'UTC'`;
  const end = sql`((${day}::date + 1)::timestamp AT TIME ZONE 'UTC')`;
  const filter = scopeFilter(scope);
  const keys = keyColumns(scope);

  await addGauges(db, scope, row);

  const violations = await sql<Keyed & { n: number }>`
    SELECT ${keys}, count(*)::int AS n
    FROM policy_violations WHERE status = 'open' AND ${filter}
    GROUP BY ${groupingSets(scope)} HAVING ${realEcosystem}`.execute(db);
  for (const v of violations.rows) row(v).violations_open = v.n;

  const opened = await sql<Keyed & { n: number }>`
    SELECT ${keys}, count(*)::int AS n FROM vulnerability_exposures
    WHERE first_seen_at >= ${start} AND first_seen_at < ${end} AND ${filter}
    GROUP BY ${groupingSets(scope)} HAVING ${realEcosystem}`.execute(db);
  for (const o of opened.rows) row(o).exposures_opened = o.n;

  const fixed = await sql<Keyed & { severity: string; n: number; seconds: number }>`
    SELECT ${keys}, severity, count(*)::int AS n,
      sum(extract(epoch FROM fixed_at - first_seen_at))::float8 AS seconds
    FROM (SELECT e.repository_id, e.ecosystem, e.fixed_at, e.first_seen_at,
            coalesce(v.severity_rating, 'unrated') AS severity
          FROM vulnerability_exposures e LEFT JOIN vulnerabilities v ON v.id = e.vulnerability_id
          WHERE e.status = 'fixed' AND e.fixed_at >= ${start} AND e.fixed_at < ${end}) f
    WHERE ${filter}
    GROUP BY ${groupingSets(scope, 'severity')} HAVING ${realEcosystem}`.execute(db);
  for (const f of fixed.rows) {
    const target = row(f);
    target.exposures_fixed += f.n;
    target.fixes[f.severity] = { count: f.n, seconds: f.seconds };
  }

  const scans = await sql<Keyed & { n: number }>`
    SELECT ${keys}, count(DISTINCT id)::int AS n
    FROM (SELECT s.id, s.repository_id, k.ecosystem FROM scans s
          LEFT JOIN LATERAL jsonb_object_keys(s.counts_by_ecosystem) AS k(ecosystem) ON true
          WHERE s.state = 'completed' AND s.finished_at >= ${start} AND s.finished_at < ${end}) x
    WHERE ${filter}
    GROUP BY ${groupingSets(scope)} HAVING ${realEcosystem}`.execute(db);
  for (const s of scans.rows) row(s).scans = s.n;

  // Tenant sums exist every day even for an empty tenant, so a trend has no gap. Alerts belong
  // to the tenant: its all-ecosystems row only, from the kept count the dashboard shows.
  if (scope.kind !== 'repository') {
    const alerts = await sql<{ n: number }>`
      SELECT coalesce(sum(n), 0)::int AS n FROM (
        SELECT n FROM analytics_counts WHERE metric = 'alerts_open'
        UNION ALL SELECT delta FROM analytics_count_changes WHERE metric = 'alerts_open') c`.execute(
      db,
    );
    const tenant = row({ repo: ALL_REPOSITORIES, eco: '' });
    tenant.alerts_open = alerts.rows[0]?.n ?? 0;
    if (tenant.major_behind === null) Object.assign(tenant, NO_DRIFT);
  }
  await replaceDay(db, day, scope, [...rows.values()]);
  return rows.size;
}

async function replaceDay(
  db: Kysely<DB>,
  day: string,
  scope: DailyScope,
  rows: (DailyRow & Keyed)[],
): Promise<void> {
  let stale = db.deleteFrom('analytics_daily').where('day', '=', day);
  if (scope.kind === 'tenant') stale = stale.where('repository_id', '=', ALL_REPOSITORIES);
  if (scope.kind === 'repository') stale = stale.where('repository_id', '=', scope.repositoryId);
  await stale.execute();
  const values = rows.map(({ repo, eco, fixes, ...rest }) => ({
    ...rest,
    day,
    repository_id: repo,
    ecosystem: eco,
    fixes: JSON.stringify(fixes),
  }));
  for (let i = 0; i < values.length; i += 2000) {
    await db
      .insertInto('analytics_daily')
      .values(values.slice(i, i + 2000))
      .execute();
  }
}

export const utcDay = (date: Date) => date.toISOString().slice(0, 10);
