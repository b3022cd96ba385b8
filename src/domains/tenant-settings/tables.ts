import type { JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

/** Tenant settings of package intelligence (migration 0007). */
export interface TenantScoringWeightsTable {
  tenant_id: TenantColumn;
  weights: JSONColumnType<Record<string, number>>;
  updated_at: Date;
}

export interface TenantBenchmarkProfileTable {
  tenant_id: TenantColumn;
  industry: string | null;
  size_band: string | null;
  opt_in: boolean;
  updated_at: Date;
}

export interface TenantSettingsTables {
  tenant_scoring_weights: TenantScoringWeightsTable;
  tenant_benchmark_profiles: TenantBenchmarkProfileTable;
}
