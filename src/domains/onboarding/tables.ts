import type { Generated } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

export interface OnboardingProgressTable {
  tenant_id: TenantColumn;
  /** Steps the tenant skipped; which steps are done is computed, never stored. */
  skipped_steps: Generated<string[]>;
  updated_at: Generated<Date>;
}

export interface OnboardingTables {
  onboarding_progress: OnboardingProgressTable;
}
