import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';

/**
 * Peer benchmarks (docs/package-intelligence.md#benchmarks). One query over every tenant of the
 * peer group that opted in (a SECURITY DEFINER function, so it can run inside the request's
 * tenant transaction); it returns aggregates only (counts, means, quartiles), never a peer's
 * identity or its own figures. The caller's figures are computed the same way.
 *
 * Per tenant: libyear per measured dependency and the share of outdated dependencies over each
 * repository's latest drift snapshot, and the mean health score (default weights, so tenants are
 * compared on one scale) of the packages it uses.
 */

export const INDUSTRIES = [
  'software',
  'financial-services',
  'healthcare',
  'retail',
  'manufacturing',
  'public-sector',
  'education',
  'telecommunications',
  'energy',
  'media',
  'other',
] as const;
export const SIZE_BANDS = ['1-49', '50-249', '250-999', '1000-4999', '5000+'] as const;

export interface MetricAggregate {
  mean: number | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
}

export interface BenchmarkFigures {
  peerTenants: number;
  self: {
    libyearPerDependency: number | null;
    outdatedShare: number | null;
    meanHealthScore: number | null;
  };
  peers: {
    libyearPerDependency: MetricAggregate;
    outdatedShare: MetricAggregate;
    meanHealthScore: MetricAggregate;
  };
}

interface AggregateRow {
  is_self: boolean;
  tenants: number;
  [key: string]: unknown;
}

const num = (value: unknown): number | null =>
  value === null || value === undefined ? null : Math.round(Number(value) * 1000) / 1000;

/**
 * Runs the database function dw_benchmark_figures (migration 0007) in the caller's tenant
 * transaction: it reads the caller's peer group itself and returns aggregates only.
 */
export async function benchmarkFigures(db: Kysely<DB>): Promise<BenchmarkFigures> {
  const result = await sql<AggregateRow>`SELECT * FROM dw_benchmark_figures()`.execute(db);
  const peers = result.rows.find((r) => !r.is_self);
  const self = result.rows.find((r) => r.is_self);
  const aggregate = (row: AggregateRow | undefined, column: string): MetricAggregate => ({
    mean: num(row?.[`${column}_mean`]),
    p25: num(row?.[`${column}_p25`]),
    median: num(row?.[`${column}_median`]),
    p75: num(row?.[`${column}_p75`]),
  });
  return {
    peerTenants: peers?.tenants ?? 0,
    self: {
      libyearPerDependency: num(self?.libyear_mean),
      outdatedShare: num(self?.outdated_mean),
      meanHealthScore: num(self?.health_mean),
    },
    peers: {
      libyearPerDependency: aggregate(peers, 'libyear'),
      outdatedShare: aggregate(peers, 'outdated'),
      meanHealthScore: aggregate(peers, 'health'),
    },
  };
}
