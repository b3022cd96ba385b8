import type { ColumnType, Generated } from 'kysely';
import type { CryptoPrimitive } from '../../cryptography/source/types';
import type { TenantColumn } from '../../db/tenant-column';
import type { ExposureStatus } from '../exposures/tables';
import type { StoredCertificateFact } from './tls/tables';

/** The quantum inventory's tables (migration 0052, docs/quantum.md). */

export const QUANTUM_CLASSIFICATIONS = [
  'weak',
  'deprecated-2030',
  'disallowed-2035',
  'hybrid',
  'quantum-safe',
] as const;
export type QuantumClassificationName = (typeof QUANTUM_CLASSIFICATIONS)[number];

export const CERTIFICATE_PROVENANCES = ['repository-file', 'tls-observation'] as const;
export type CertificateProvenance = (typeof CERTIFICATE_PROVENANCES)[number];

export const TLS_OBSERVATION_STATES = [
  'vulnerable',
  'hybrid',
  'pq-kex',
  'quantum-safe',
  'unreachable',
  'refused',
] as const;
export type TlsObservationState = (typeof TLS_OBSERVATION_STATES)[number];

export interface QuantumFindingTable {
  tenant_id: TenantColumn;
  id: string;
  repository_id: string;
  finding_key: string;
  scan_id: string;
  first_seen_scan_id: string;
  file: string | null;
  line: number | null;
  language: string | null;
  primitive: CryptoPrimitive;
  algorithm: string;
  curve: string | null;
  key_size: number | null;
  classification: (typeof QUANTUM_CLASSIFICATIONS)[number];
  severity: string;
  recommendation: string;
  snippet: string | null;
  api: string | null;
  purl: string | null;
  present: Generated<boolean>;
  status: Generated<ExposureStatus>;
  justification: string | null;
  status_reason: string | null;
  accepted_until: Date | null;
  status_changed_at: Date | null;
  status_changed_by_token_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface QuantumCertificateTable {
  tenant_id: TenantColumn;
  id: string;
  provenance: CertificateProvenance;
  repository_id: string | null;
  scan_id: string | null;
  endpoint_id: string | null;
  file: string | null;
  line: number | null;
  subject: string;
  issuer: string;
  serial_number: string;
  not_before: Date;
  not_after: Date;
  key_algorithm: string;
  key_size: number | null;
  curve: string | null;
  signature_algorithm: string;
  fingerprint_sha256: string;
  classification: (typeof QUANTUM_CLASSIFICATIONS)[number];
  self_signed: boolean;
  is_ca: boolean;
  container: string | null;
  created_at: Generated<Date>;
}

export interface QuantumAlgorithmUseTable {
  tenant_id: TenantColumn;
  repository_id: string;
  scan_id: string;
  algorithm: string;
  kind: string;
  file: string;
  line: number;
  language: string;
}

export interface QuantumScanSummaryTable {
  tenant_id: TenantColumn;
  repository_id: string;
  scan_id: string;
  files_read: number;
  bytes_read: string;
  files_skipped: number;
  scanned_at: Generated<Date>;
}

export interface QuantumTlsEndpointTable {
  tenant_id: TenantColumn;
  id: string;
  /** The repository whose service answers there, if the tenant said so. */
  repository_id: Generated<string | null>;
  host: string;
  port: number;
  server_name: string | null;
  interval_hours: number;
  next_probe_at: Generated<Date>;
  last_probed_at: Date | null;
  created_at: Generated<Date>;
}

export interface QuantumTlsObservationTable {
  tenant_id: TenantColumn;
  id: string;
  endpoint_id: string;
  observed_at: Generated<Date>;
  state: TlsObservationState;
  hybrid_kex_classical_auth: Generated<boolean>;
  protocol: string | null;
  cipher_suite: string | null;
  group_name: string | null;
  group_codepoint: number | null;
  supported_group_name: string | null;
  supported_group_codepoint: number | null;
  verdict_reason: string | null;
  problem: string | null;
  /** Migration 0053: the address probed (null when refused before one was chosen). */
  address: string | null;
  /** Migration 0053: the chain read, leaf first (JSON text on insert). */
  certificates: ColumnType<StoredCertificateFact[], string | undefined, string>;
}

export interface QuantumTables {
  quantum_findings: QuantumFindingTable;
  quantum_certificates: QuantumCertificateTable;
  quantum_algorithm_uses: QuantumAlgorithmUseTable;
  quantum_scan_summaries: QuantumScanSummaryTable;
  quantum_tls_endpoints: QuantumTlsEndpointTable;
  quantum_tls_observations: QuantumTlsObservationTable;
}
