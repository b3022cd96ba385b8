import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

export const POLICY_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type PolicySeverity = (typeof POLICY_SEVERITIES)[number];

export const POLICY_ACTIONS = ['inform', 'warn', 'block'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

export const VIOLATION_STATUSES = [
  'open',
  'acknowledged',
  'dismissed',
  'excepted',
  'resolved',
] as const;
export type ViolationStatus = (typeof VIOLATION_STATUSES)[number];

export const EXCEPTION_SCOPES = ['violation', 'repository_package', 'tenant_package'] as const;
export type ExceptionScope = (typeof EXCEPTION_SCOPES)[number];

export type ExceptionStatus = 'active' | 'expired';

/** Which repositories a policy applies to; an empty list does not narrow. */
export interface PolicyScope {
  repositoryIds: string[];
  ecosystems: string[];
  businessCriticalities: string[];
  lifecycleStatuses: string[];
}

export interface PolicyTable {
  tenant_id: TenantColumn;
  id: string;
  name: string;
  description: string;
  condition: string;
  severity: PolicySeverity;
  action: PolicyAction;
  enabled: boolean;
  scope: JSONColumnType<PolicyScope>;
  version: number;
  created_by_token_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PolicyViolationTable {
  tenant_id: TenantColumn;
  id: string;
  policy_id: string;
  repository_id: string;
  package_id: string;
  version: string;
  ecosystem: string;
  package_name: string;
  purl: string;
  severity: PolicySeverity;
  action: PolicyAction;
  status: ViolationStatus;
  status_reason: string | null;
  status_changed_at: Date | null;
  status_changed_by_token_id: string | null;
  exception_id: string | null;
  facts: JSONColumnType<Record<string, unknown>>;
  /** SHA-1 of the facts as JSON (base64url): what an evaluation compares; null until written. */
  facts_digest: ColumnType<string | null, string | null | undefined, string | null>;
  policy_version: number;
  detected_at: Generated<Date>;
  last_evaluated_at: Generated<Date>;
  resolved_at: Date | null;
  reopened_count: Generated<number>;
}

export interface PolicyExceptionTable {
  tenant_id: TenantColumn;
  id: string;
  policy_id: string;
  violation_id: string | null;
  scope: ExceptionScope;
  repository_id: string | null;
  package_id: string;
  version: string | null;
  reason: string;
  expires_at: Date;
  status: Generated<ExceptionStatus>;
  created_by_token_id: string | null;
  created_at: Generated<Date>;
  expired_at: Date | null;
}

/** Digests of the facts each dependency had at the last evaluation by every policy. */
export interface PolicyEvaluationStateTable {
  tenant_id: TenantColumn;
  repository_id: string;
  digests: JSONColumnType<Record<string, string>>;
  updated_at: Generated<Date>;
}

/** The version of each policy last evaluated over every dependency of a repository (0043). */
export interface PolicyRepositoryVersionTable {
  tenant_id: TenantColumn;
  repository_id: string;
  policy_id: string;
  version: number;
  evaluated_at: Generated<Date>;
}

/** An evaluation of one repository asked for and not done yet (0043). */
export interface PolicyEvaluationRequestTable {
  tenant_id: TenantColumn;
  id: string;
  repository_id: string;
  reason: string;
  requested_at: Generated<Date>;
}

export interface PolicyTables {
  policies: PolicyTable;
  policy_repository_versions: PolicyRepositoryVersionTable;
  policy_evaluation_requests: PolicyEvaluationRequestTable;
  policy_evaluation_states: PolicyEvaluationStateTable;
  policy_violations: PolicyViolationTable;
  policy_exceptions: PolicyExceptionTable;
}
