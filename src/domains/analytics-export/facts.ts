import { type Kysely, type RawBuilder, sql } from 'kysely';
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

type SourceValue = string | number | boolean | null | Date;

/**
 * A fact's source query: rows in `(at, id)` order after `mark`, each with the watermark columns
 * `at` and `id` and every destination column but `tenant_id`, named as in the destination.
 */
type FactQuery = (mark: Watermark, limit: number) => RawBuilder<Record<string, SourceValue>>;

const EPOCH = '1970-01-01 00:00:00+00';

function fact(definition: Omit<Fact, 'read'> & { query: FactQuery }): Fact {
  const { query, ...described } = definition;
  const sent = definition.columns
    .map((column) => column.name)
    .filter((name) => name !== 'tenant_id');
  return {
    ...described,
    read: async (db, tenantId, watermark, limit) => {
      const { rows } = await query(watermark ?? { at: EPOCH, id: '' }, limit).execute(db);
      return rows.map((row) => {
        const values: FactRow['values'] = { tenant_id: tenantId };
        for (const name of sent) {
          const value = row[name] ?? null;
          values[name] = value instanceof Date ? value.toISOString() : value;
        }
        return { at: String(row.at), id: String(row.id), values };
      });
    },
  };
}

const scans = fact({
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
  query: (mark, limit) => sql`
    SELECT finished_at::text AS at, id, id AS scan_id, repository_id, state, trigger, branch,
      commit_sha, queued_at, started_at, finished_at, dependency_count, file_count
    FROM scans
    WHERE finished_at IS NOT NULL AND state IN ('completed', 'failed', 'cancelled')
      AND (finished_at, id::text) > (${mark.at}::timestamptz, ${mark.id})
    ORDER BY finished_at, id::text
    LIMIT ${limit}`,
});

const exposures = fact({
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
  query: (mark, limit) => sql`
    SELECT e.first_seen_at::text AS at, e.id, e.id AS exposure_id, e.repository_id, e.ecosystem,
      e.package_name, e.version, e.vulnerability_id, v.severity_rating AS severity, e.first_seen_at
    FROM vulnerability_exposures e
    LEFT JOIN vulnerabilities v ON v.id = e.vulnerability_id
    WHERE (e.first_seen_at, e.id::text) > (${mark.at}::timestamptz, ${mark.id})
    ORDER BY e.first_seen_at, e.id::text
    LIMIT ${limit}`,
});

/**
 * Finished days only (before today, UTC): a day's row is final once it is sent. '*' is every
 * repository (every ecosystem): the tenant's own row.
 */
const daily = fact({
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
  query: (mark, limit) => sql`
    SELECT at_time::text AS at, d.* FROM (
      SELECT (day::timestamp AT TIME ZONE 'UTC') AS at_time,
        repository_id::text || '/' || ecosystem AS id, to_char(day, 'YYYY-MM-DD') AS day,
        CASE WHEN repository_id = ${ALL_REPOSITORIES} THEN '*' ELSE repository_id::text END
          AS scope_repository_id,
        CASE WHEN ecosystem = '' THEN '*' ELSE ecosystem END AS scope_ecosystem,
        dependencies, direct, libyear, exposures_unresolved, exposures_critical, violations_open,
        exposures_opened, exposures_fixed, scans
      FROM analytics_daily
      WHERE day < (now() AT TIME ZONE 'UTC')::date
    ) d
    WHERE (at_time, id) > (${mark.at}::timestamptz, ${mark.id})
    ORDER BY at_time, id
    LIMIT ${limit}`,
});

export const FACTS: readonly Fact[] = [scans, exposures, daily];
