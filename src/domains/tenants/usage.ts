import { type Kysely, sql } from 'kysely';
import { PLAN_DEFINITIONS, type Plan } from '../../core/plans';
import type { DB } from '../../db/schema';
import { COUNTED_DEPENDENCY_SQL } from '../repositories/counted-dependencies';
import { listTenantTables } from './catalogue';

export interface UsageFigure {
  used: number;
  /** The plan's ceiling (src/core/plans.ts); null where the plan sets none. */
  limit: number | null;
}

export interface TenantUsage {
  plan: Plan;
  monthStartUtc: string;
  windowStartUtc: string;
  windowSeconds: number;
  repositories: UsageFigure;
  dependencies: UsageFigure;
  scansThisMonth: UsageFigure;
  apiCallsThisWindow: UsageFigure;
  apiCallsThisMonth: UsageFigure;
  advisoriesMatched: UsageFigure;
  storageBytes: UsageFigure;
}

export interface UsageInputs {
  plan: Plan;
  /** The configured per-tenant rate ceiling per minute, before the plan's. */
  tenantPerMinute: number;
  /** Calls counted in memory by this process and not yet written, since the given time. */
  pendingCalls: (since: Date) => number;
  now?: Date;
}

const WINDOW_SECONDS = 60;

/**
 * GET /api/v1/tenants/current/usage, all from stored state in the request's scoped transaction.
 * API calls: the rate-limit window is the current clock minute; calls are the flushed per-minute
 * counts plus what this process has not flushed yet. Storage: the bytes of the tenant's rows in
 * every tenant table (pg_column_size of each row), which includes stored SBOMs and exports.
 */
export async function tenantUsage(db: Kysely<DB>, inputs: UsageInputs): Promise<TenantUsage> {
  const now = inputs.now ?? new Date();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const limits = PLAN_DEFINITIONS[inputs.plan].limits;
  const counts = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('repositories').select(eb.fn.countAll<string>().as('n')).as('repositories'),
      eb
        .selectFrom('repository_dependencies')
        .select(eb.fn.countAll<string>().as('n'))
        // The project's own package (scope self) is stored but is no dependency.
        .where(sql.raw<boolean>(COUNTED_DEPENDENCY_SQL))
        .as('dependencies'),
      eb
        .selectFrom('scans')
        .select(eb.fn.countAll<string>().as('n'))
        .where('queued_at', '>=', monthStart)
        .as('scans'),
      eb
        .selectFrom('vulnerability_exposures')
        .select(sql<string>`count(DISTINCT vulnerability_id)`.as('n'))
        .as('advisories'),
      eb
        .selectFrom('tenant_api_calls')
        .select(sql<string>`coalesce(sum(calls), 0)`.as('n'))
        .where('minute', '>=', monthStart)
        .as('month_calls'),
      eb
        .selectFrom('tenant_api_calls')
        .select(sql<string>`coalesce(sum(calls), 0)`.as('n'))
        .where('minute', '>=', windowStart)
        .as('window_calls'),
    ])
    .executeTakeFirstOrThrow();
  const windowLimit = Math.min(
    inputs.tenantPerMinute,
    limits.tenantRequestsPerMinute ?? Number.POSITIVE_INFINITY,
  );
  return {
    plan: inputs.plan,
    monthStartUtc: monthStart.toISOString(),
    windowStartUtc: windowStart.toISOString(),
    windowSeconds: WINDOW_SECONDS,
    repositories: { used: Number(counts.repositories), limit: limits.repositories },
    dependencies: { used: Number(counts.dependencies), limit: null },
    scansThisMonth: { used: Number(counts.scans), limit: null },
    apiCallsThisWindow: {
      used: Number(counts.window_calls) + inputs.pendingCalls(windowStart),
      limit: windowLimit,
    },
    apiCallsThisMonth: {
      used: Number(counts.month_calls) + inputs.pendingCalls(monthStart),
      limit: null,
    },
    advisoriesMatched: { used: Number(counts.advisories), limit: null },
    storageBytes: { used: await storedBytes(db), limit: null },
  };
}

/** Bytes of the tenant's rows over every tenant table (row-level security scopes each sum). */
async function storedBytes(db: Kysely<DB>): Promise<number> {
  const tables = await listTenantTables(db);
  if (tables.length === 0) return 0;
  const sums = tables.map(
    (table) =>
      sql`SELECT coalesce(sum(pg_column_size(t.*)), 0) AS n FROM ${sql.table(table.name)} t`,
  );
  const { rows } = await sql<{ n: string }>`SELECT coalesce(sum(n), 0) AS n FROM (${sql.join(
    sums,
    sql` UNION ALL `,
  )}) per_table`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
