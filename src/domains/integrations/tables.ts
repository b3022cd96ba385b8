import type { Generated } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

export const INTEGRATION_STATUSES = ['active', 'disabled'] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

/** Why an integration is disabled: 410 from the receiver, a delivery out of attempts, a user. */
export type DisabledReason = 'gone' | 'failing' | 'manual';

export interface IntegrationTable {
  tenant_id: TenantColumn;
  id: string;
  kind: Generated<'webhook'>;
  name: string;
  url: string;
  secret_sealed: string;
  status: Generated<IntegrationStatus>;
  disabled_reason: DisabledReason | null;
  disabled_at: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface IntegrationTables {
  integrations: IntegrationTable;
}
