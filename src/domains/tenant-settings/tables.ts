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

/** Whether a question's audit entry keeps its text (migration 0057, docs/questions.md). */
export interface TenantQuestionSettingsTable {
  tenant_id: TenantColumn;
  record_question_text: boolean;
  updated_at: Date;
}

export interface TenantSettingsTables {
  tenant_question_settings: TenantQuestionSettingsTable;
  tenant_scoring_weights: TenantScoringWeightsTable;
  tenant_benchmark_profiles: TenantBenchmarkProfileTable;
}
