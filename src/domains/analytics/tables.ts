import type { Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

export interface AnalyticsRepositoryStateTable {
  tenant_id: TenantColumn;
  repository_id: string;
  ecosystem: string;
  dependencies: number;
  direct: number;
  exposures_critical: number;
  exposures_high: number;
  exposures_medium: number;
  exposures_low: number;
  exposures_unrated: number;
  exposures_malicious: Generated<number>;
  exposures_by_status: JSONColumnType<Record<string, number>, string, string>;
  libyear: number;
  /** Summed libyear of this ecosystem's dependencies (0 on the repository row). */
  ecosystem_libyear: Generated<number>;
  major_behind: number;
  minor_behind: number;
  patch_behind: number;
  deprecated: number;
  end_of_life: number;
  updated_at: Date;
}

export type FixesBySeverity = Record<string, { count: number; seconds: number }>;

export interface AnalyticsDailyTable {
  tenant_id: TenantColumn;
  day: string;
  repository_id: string;
  ecosystem: string;
  dependencies: Generated<number>;
  direct: Generated<number>;
  libyear: Generated<number | null>;
  exposures_unresolved: Generated<number>;
  exposures_critical: Generated<number>;
  /** Migration 0060; null on days rolled up before it. */
  exposures_high: Generated<number | null>;
  exposures_medium: Generated<number | null>;
  exposures_low: Generated<number | null>;
  violations_open: Generated<number>;
  exposures_opened: Generated<number>;
  exposures_fixed: Generated<number>;
  fixes: JSONColumnType<FixesBySeverity, string, string>;
  scans: Generated<number>;
  /** Migration 0036; null on days rolled up before it. */
  repositories: Generated<number | null>;
  /** The tenant's all-ecosystems rows only (null elsewhere). */
  alerts_open: Generated<number | null>;
  /** Drift counts: all-ecosystems rows only (null on one ecosystem's rows). */
  major_behind: Generated<number | null>;
  minor_behind: Generated<number | null>;
  patch_behind: Generated<number | null>;
  deprecated: Generated<number | null>;
  end_of_life: Generated<number | null>;
}

export interface AnalyticsTenantSummaryTable {
  tenant_id: TenantColumn;
  data: JSONColumnType<Record<string, unknown>, string, string>;
  updated_at: Generated<Date>;
}

/**
 * Counts kept by triggers (migration 0028): `analytics_counts` holds the folded totals,
 * `analytics_count_changes` each statement's change since the last fold.
 */
export type CountMetric =
  | 'repositories_by_criticality'
  | 'repositories_by_last_scan'
  | 'violations_open'
  | 'alerts_open';

export interface AnalyticsCountsTable {
  tenant_id: TenantColumn;
  metric: CountMetric;
  key: string;
  n: number;
}

export interface AnalyticsCountChangesTable {
  tenant_id: TenantColumn;
  metric: CountMetric;
  key: string;
  delta: number;
}

export interface AnalyticsTables {
  analytics_counts: AnalyticsCountsTable;
  analytics_count_changes: AnalyticsCountChangesTable;
  analytics_tenant_summary: AnalyticsTenantSummaryTable;
  analytics_repository_state: AnalyticsRepositoryStateTable;
  analytics_daily: AnalyticsDailyTable;
}
