import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { ALL_REPOSITORIES } from '../analytics/rollups';

/**
 * The fact tables a warehouse export appends (docs/workspace.md#warehouse-export). Each is read
 * in key order `(at, id)` after the destination's watermark, so a run sends only rows the
 * destination does not have yet; every row also carries the tenant id, so one warehouse can
 * hold several tenants.
 */
export interface FactColumn {
  name: string;
  /** The column's type in a PostgreSQL destination. */
  type: string;
}

/** `at` is PostgreSQL's own text of the timestamp: microseconds survive the round trip. */
export interface Watermark {
  at: string;
  id: string;
}

export interface FactRow extends Watermark {
  values: Record<string, string | number | boolean | null>;
}

export interface Fact {
  name: string;
  /** The table in a PostgreSQL destination. */
  table: string;
  columns: readonly FactColumn[];
  /** The destination's primary key: a row sent twice (a retried run) is kept once. */
  key: readonly string[];
  read: (
    db: Kysely<DB>,
    tenantId: string,
    after: Watermark | null,
    limit: number,
  ) => Promise<FactRow[]>;
}

const EPOCH = '1970-01-01 00:00:00+00';

function after(watermark: Watermark | null) {
  const mark = watermark ?? { at: EPOCH, id: '' };
  return { at: mark.at, id: mark.id };
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

interface ScanFactRow {
  at: string;
  id: string;
  repository_id: string;
  state: string;
  trigger: string;
  branch: string | null;
  commit_sha: string | null;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date;
  dependency_count: number;
  file_count: number;
}

const scans: Fact = {
  name: 'scans',
  table: 'driftwatch_scans',
  columns: [
    { name: 'tenant_id', type: 'uuid NOT NULL' },
    { name: 'scan_id', type: 'uuid NOT NULL' },
    { name: 'repository_id', type: 'uuid NOT NULL' },
    { name: 'state', type: 'text NOT NULL' },
    { name: 'trigger', type: 'text NOT NULL' },
    { name: 'branch', type: 'text' },
    { name: 'commit_sha', type: 'text' },
    { name: 'queued_at', type: 'timestamptz NOT NULL' },
    { name: 'started_at', type: 'timestamptz' },
    { name: 'finished_at', type: 'timestamptz NOT NULL' },
    { name: 'dependency_count', type: 'integer NOT NULL' },
    { name: 'file_count', type: 'integer NOT NULL' },
  ],
  key: ['tenant_id', 'scan_id'],
  read: async (db, tenantId, watermark, limit) => {
    const mark = after(watermark);
    const { rows } = await sql<ScanFactRow>`
      SELECT finished_at::text AS at, id, repository_id, state, trigger, branch, commit_sha, queued_at, started_at,
        finished_at, dependency_count, file_count
      FROM scans
      WHERE finished_at IS NOT NULL AND state IN ('completed', 'failed', 'cancelled')
        AND (finished_at, id::text) > (${mark.at}::timestamptz, ${mark.id})
      ORDER BY finished_at, id::text
      LIMIT ${limit}`.execute(db);
    return rows.map((row) => ({
      at: row.at,
      id: row.id,
      values: {
        tenant_id: tenantId,
        scan_id: row.id,
        repository_id: row.repository_id,
        state: row.state,
        trigger: row.trigger,
        branch: row.branch,
        commit_sha: row.commit_sha,
        queued_at: iso(row.queued_at),
        started_at: iso(row.started_at),
        finished_at: iso(row.finished_at),
        dependency_count: row.dependency_count,
        file_count: row.file_count,
      },
    }));
  },
};

interface ExposureFactRow {
  at: string;
  id: string;
  repository_id: string;
  ecosystem: string;
  package_name: string;
  version: string;
  vulnerability_id: string;
  severity: string | null;
  first_seen_at: Date;
}

const exposures: Fact = {
  name: 'exposures',
  table: 'driftwatch_exposures_opened',
  columns: [
    { name: 'tenant_id', type: 'uuid NOT NULL' },
    { name: 'exposure_id', type: 'uuid NOT NULL' },
    { name: 'repository_id', type: 'uuid NOT NULL' },
    { name: 'ecosystem', type: 'text NOT NULL' },
    { name: 'package_name', type: 'text NOT NULL' },
    { name: 'version', type: 'text NOT NULL' },
    { name: 'vulnerability_id', type: 'uuid NOT NULL' },
    { name: 'severity', type: 'text' },
    { name: 'first_seen_at', type: 'timestamptz NOT NULL' },
  ],
  key: ['tenant_id', 'exposure_id'],
  read: async (db, tenantId, watermark, limit) => {
    const mark = after(watermark);
    const { rows } = await sql<ExposureFactRow>`
      SELECT e.first_seen_at::text AS at, e.id, e.repository_id, e.ecosystem, e.package_name, e.version, e.vulnerability_id,
        v.severity_rating AS severity, e.first_seen_at
      FROM vulnerability_exposures e
      LEFT JOIN vulnerabilities v ON v.id = e.vulnerability_id
      WHERE (e.first_seen_at, e.id::text) > (${mark.at}::timestamptz, ${mark.id})
      ORDER BY e.first_seen_at, e.id::text
      LIMIT ${limit}`.execute(db);
    return rows.map((row) => ({
      at: row.at,
      id: row.id,
      values: {
        tenant_id: tenantId,
        exposure_id: row.id,
        repository_id: row.repository_id,
        ecosystem: row.ecosystem,
        package_name: row.package_name,
        version: row.version,
        vulnerability_id: row.vulnerability_id,
        severity: row.severity,
        first_seen_at: iso(row.first_seen_at),
      },
    }));
  },
};

interface DailyFactRow {
  at: string;
  key: string;
  day: string;
  repository_id: string;
  ecosystem: string;
  dependencies: number;
  direct: number;
  libyear: number | null;
  exposures_unresolved: number;
  exposures_critical: number;
  violations_open: number;
  exposures_opened: number;
  exposures_fixed: number;
  scans: number;
}

/** Finished days only (before today, UTC): a day's row is final once it is sent. */
const daily: Fact = {
  name: 'daily',
  table: 'driftwatch_daily',
  columns: [
    { name: 'tenant_id', type: 'uuid NOT NULL' },
    { name: 'day', type: 'date NOT NULL' },
    { name: 'scope_repository_id', type: 'text NOT NULL' },
    { name: 'scope_ecosystem', type: 'text NOT NULL' },
    { name: 'dependencies', type: 'integer NOT NULL' },
    { name: 'direct', type: 'integer NOT NULL' },
    { name: 'libyear', type: 'double precision' },
    { name: 'exposures_unresolved', type: 'integer NOT NULL' },
    { name: 'exposures_critical', type: 'integer NOT NULL' },
    { name: 'violations_open', type: 'integer NOT NULL' },
    { name: 'exposures_opened', type: 'integer NOT NULL' },
    { name: 'exposures_fixed', type: 'integer NOT NULL' },
    { name: 'scans', type: 'integer NOT NULL' },
  ],
  key: ['tenant_id', 'day', 'scope_repository_id', 'scope_ecosystem'],
  read: async (db, tenantId, watermark, limit) => {
    const mark = after(watermark);
    const { rows } = await sql<DailyFactRow>`
      SELECT at_time::text AS at, d.* FROM (
        SELECT (day::timestamp AT TIME ZONE 'UTC') AS at_time,
          repository_id::text || '/' || ecosystem AS key, to_char(day, 'YYYY-MM-DD') AS day,
          repository_id::text AS repository_id, ecosystem, dependencies, direct, libyear,
          exposures_unresolved, exposures_critical, violations_open, exposures_opened,
          exposures_fixed, scans
        FROM analytics_daily
        WHERE day < (now() AT TIME ZONE 'UTC')::date
      ) d
      WHERE (at_time, key) > (${mark.at}::timestamptz, ${mark.id})
      ORDER BY at_time, key
      LIMIT ${limit}`.execute(db);
    return rows.map((row) => ({
      at: row.at,
      id: row.key,
      values: {
        tenant_id: tenantId,
        day: row.day,
        // '*' is every repository (every ecosystem): the tenant's own row.
        scope_repository_id: row.repository_id === ALL_REPOSITORIES ? '*' : row.repository_id,
        scope_ecosystem: row.ecosystem === '' ? '*' : row.ecosystem,
        dependencies: row.dependencies,
        direct: row.direct,
        libyear: row.libyear,
        exposures_unresolved: row.exposures_unresolved,
        exposures_critical: row.exposures_critical,
        violations_open: row.violations_open,
        exposures_opened: row.exposures_opened,
        exposures_fixed: row.exposures_fixed,
        scans: row.scans,
      },
    }));
  },
};

export const FACTS: readonly Fact[] = [scans, exposures, daily];
