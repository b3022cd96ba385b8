import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { COUNTED_DEPENDENCY_SQL } from './counted-dependencies';

/**
 * The risk summary of a repository, computed from what is stored: its dependencies; its open
 * vulnerability exposures by severity; its latest drift; the health of its packages; its policy
 * violations. Each part reads its tables only when they exist with the columns it needs, so a
 * part that later work fills is zero (with `available: false`) until then, never invented.
 */
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'unknown'] as const;
type Severity = (typeof SEVERITIES)[number];

/** Exposure statuses that no longer count as risk. */
const CLOSED_EXPOSURE_STATUSES = ['fixed', 'not_affected', 'false_positive'];

async function hasColumns(db: Kysely<DB>, table: string, columns: string[]): Promise<boolean> {
  const result = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table}
      AND column_name = ANY(${columns}::text[])`.execute(db);
  return (result.rows[0]?.n ?? 0) === columns.length;
}

export async function riskSummary(db: Kysely<DB>, repositoryId: string) {
  return {
    dependencies: await dependencyPart(db, repositoryId),
    vulnerabilities: await vulnerabilityPart(db, repositoryId),
    drift: await driftPart(db, repositoryId),
    health: await healthPart(db, repositoryId),
    policy: await policyPart(db, repositoryId),
  };
}

/** Dependencies by kind, resolution and ecosystem. */
async function dependencyPart(db: Kysely<DB>, repositoryId: string) {
  const deps = await sql<{
    total: number;
    direct: number;
    resolved: number;
    declared: number;
    unpinned: number;
    packages: number;
  }>`
    SELECT count(*)::int AS total,
      count(*) FILTER (WHERE direct)::int AS direct,
      count(*) FILTER (WHERE resolution = 'resolved')::int AS resolved,
      count(*) FILTER (WHERE resolution = 'declared')::int AS declared,
      count(*) FILTER (WHERE resolution = 'unpinned')::int AS unpinned,
      count(DISTINCT package_id)::int AS packages
    FROM repository_dependencies WHERE repository_id = ${repositoryId} AND scope <> 'self'`.execute(
    db,
  );
  const perEcosystem = await sql<{ ecosystem: string; n: number }>`
    SELECT ecosystem, count(*)::int AS n FROM repository_dependencies
    WHERE repository_id = ${repositoryId} AND ${sql.raw(COUNTED_DEPENDENCY_SQL)}
    GROUP BY ecosystem ORDER BY ecosystem`.execute(db);
  const d = deps.rows[0] ?? {
    total: 0,
    direct: 0,
    resolved: 0,
    declared: 0,
    unpinned: 0,
    packages: 0,
  };

  return {
    total: d.total,
    direct: d.direct,
    transitive: d.total - d.direct,
    packages: d.packages,
    byResolution: { resolved: d.resolved, declared: d.declared, unpinned: d.unpinned },
    byEcosystem: Object.fromEntries(perEcosystem.rows.map((r) => [r.ecosystem, r.n])),
  };
}

/** Open exposures, counted once per vulnerability, by severity. */
async function vulnerabilityPart(db: Kysely<DB>, repositoryId: string) {
  const bySeverity: Record<Severity, number> = {
    critical: 0,
    high: 0,
    medium: 0,
    low: 0,
    unknown: 0,
  };
  const exposuresAvailable =
    (await hasColumns(db, 'vulnerability_exposures', [
      'repository_id',
      'vulnerability_id',
      'status',
    ])) && (await hasColumns(db, 'vulnerabilities', ['id', 'severity_rating']));
  if (exposuresAvailable) {
    const rows = await sql<{ severity: string | null; n: number }>`
      SELECT v.severity_rating AS severity, count(DISTINCT e.vulnerability_id)::int AS n
      FROM vulnerability_exposures e JOIN vulnerabilities v ON v.id = e.vulnerability_id
      WHERE e.repository_id = ${repositoryId}
        AND e.status <> ALL(${CLOSED_EXPOSURE_STATUSES}::text[])
      GROUP BY v.severity_rating`.execute(db);
    for (const row of rows.rows) {
      const key = (SEVERITIES as readonly string[]).includes(row.severity ?? '')
        ? (row.severity as Severity)
        : 'unknown';
      bySeverity[key] += row.n;
    }
  }

  return {
    available: exposuresAvailable,
    open: Object.values(bySeverity).reduce((a, b) => a + b, 0),
    bySeverity,
  };
}

/** The latest drift snapshot. */
async function driftPart(db: Kysely<DB>, repositoryId: string) {
  let drift = {
    available: false,
    scanId: null as string | null,
    measured: 0,
    pending: 0,
    outdated: 0,
    majorBehind: 0,
    minorBehind: 0,
    patchBehind: 0,
    deprecated: 0,
    yanked: 0,
    endOfLife: 0,
    libyears: 0,
  };
  if (
    await hasColumns(db, 'repository_drift', [
      'repository_id',
      'scan_id',
      'scanned_at',
      'measured_count',
      'pending_count',
      'outdated_count',
      'major_behind',
      'minor_behind',
      'patch_behind',
      'deprecated_count',
      'yanked_count',
      'end_of_life_count',
      'libyear_total',
    ])
  ) {
    const rows = await sql<Record<string, number | string>>`
      SELECT scan_id, measured_count, pending_count, outdated_count, major_behind, minor_behind,
        patch_behind, deprecated_count, yanked_count, end_of_life_count, libyear_total
      FROM repository_drift WHERE repository_id = ${repositoryId}
      ORDER BY scanned_at DESC LIMIT 1`.execute(db);
    const row = rows.rows[0];
    drift = {
      ...drift,
      available: true,
      ...(row
        ? {
            scanId: String(row.scan_id),
            measured: Number(row.measured_count),
            pending: Number(row.pending_count),
            outdated: Number(row.outdated_count),
            majorBehind: Number(row.major_behind),
            minorBehind: Number(row.minor_behind),
            patchBehind: Number(row.patch_behind),
            deprecated: Number(row.deprecated_count),
            yanked: Number(row.yanked_count),
            endOfLife: Number(row.end_of_life_count),
            libyears: Math.round(Number(row.libyear_total) * 100) / 100,
          }
        : {}),
    };
  }

  return drift;
}

/** The latest health score of each of the repository's packages, summed up. */
async function healthPart(db: Kysely<DB>, repositoryId: string) {
  const health = {
    available: false,
    scored: 0,
    averageScore: null as number | null,
    below50: 0,
  };
  if (
    await hasColumns(db, 'package_health_snapshots', [
      'package_id',
      'snapshot_date',
      'default_score',
    ])
  ) {
    health.available = true;
    const rows = await sql<{ scored: number; average: number | null; low: number }>`
      WITH latest AS (
        SELECT DISTINCT ON (s.package_id) s.package_id, s.default_score
        FROM package_health_snapshots s
        WHERE s.package_id IN (
          SELECT package_id FROM repository_dependencies WHERE repository_id = ${repositoryId})
        ORDER BY s.package_id, s.snapshot_date DESC)
      SELECT count(default_score)::int AS scored, avg(default_score)::float8 AS average,
        count(*) FILTER (WHERE default_score < 50)::int AS low
      FROM latest`.execute(db);
    const row = rows.rows[0];
    if (row) {
      health.scored = row.scored;
      health.averageScore = row.average === null ? null : Math.round(row.average * 10) / 10;
      health.below50 = row.low;
    }
  }

  return health;
}

/** Open policy violations, and whether any policy was evaluated at all. */
async function policyPart(db: Kysely<DB>, repositoryId: string) {
  const policy = { available: false, status: 'notEvaluated', openViolations: 0 };
  if (await hasColumns(db, 'policy_violations', ['repository_id', 'status'])) {
    policy.available = true;
    const rows = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM policy_violations
      WHERE repository_id = ${repositoryId} AND status = 'open'`.execute(db);
    policy.openViolations = rows.rows[0]?.n ?? 0;
    policy.status = policy.openViolations > 0 ? 'failing' : 'passing';
    // No policy at all is not "passing": nothing was evaluated.
    if (policy.openViolations === 0 && (await hasColumns(db, 'policies', ['id']))) {
      const defined = await sql<{ n: number }>`SELECT count(*)::int AS n FROM policies`.execute(db);
      if ((defined.rows[0]?.n ?? 0) === 0) policy.status = 'noPolicies';
    }
  }

  return policy;
}
