import type { Generated } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

/** The tenant's remediation targets in days, per severity (migration 0055). */
export interface ComplianceSettingsTable {
  tenant_id: TenantColumn;
  critical_days: number;
  high_days: number;
  medium_days: number;
  low_days: number;
  updated_by_token_id: string | null;
  updated_at: Generated<Date>;
}

export type ArchiveState = 'queued' | 'generating' | 'ready' | 'failed';

export interface ComplianceEvidenceArchiveTable {
  tenant_id: TenantColumn;
  id: string;
  period_start: Date;
  period_end: Date;
  state: Generated<ArchiveState>;
  requested_by_token_id: string | null;
  archive: Buffer | null;
  archive_bytes: number | null;
  archive_sha256: string | null;
  manifest_sha256: string | null;
  signing_key_id: string | null;
  error: string | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

/** The service's archive signing key (no tenant; system connection only). */
export interface ComplianceSigningKeyTable {
  key_id: string;
  algorithm: 'Ed25519';
  public_key_pem: string;
  private_key_sealed: string;
  active: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface ComplianceTables {
  compliance_settings: ComplianceSettingsTable;
  compliance_evidence_archives: ComplianceEvidenceArchiveTable;
  compliance_signing_keys: ComplianceSigningKeyTable;
}
