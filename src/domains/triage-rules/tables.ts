import type { Generated } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

/** Statuses a rule can give the exposures it covers (docs/triage.md). */
export const RULE_STATUSES = ['not_affected', 'false_positive', 'accepted_risk'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];

export type RuleOrigin = 'api' | 'vex';

export interface TriageRuleTable {
  tenant_id: TenantColumn;
  id: string;
  vulnerability_ref: string;
  ecosystem: string;
  package_name: string;
  version_range: string | null;
  repository_ids: Generated<string[]>;
  status: RuleStatus;
  justification: string | null;
  reason: string | null;
  expires_at: Date | null;
  origin: Generated<RuleOrigin>;
  created_by_token_id: string | null;
  created_at: Generated<Date>;
  revoked_at: Date | null;
  revoked_by_token_id: string | null;
}

export interface TriageRuleTables {
  triage_rules: TriageRuleTable;
}
