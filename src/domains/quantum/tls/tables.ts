import type { Generated } from 'kysely';
import type { KeyAlgorithm } from '../../../cryptography/certificates/types';
import type { QuantumClassification } from '../../../cryptography/classify';
import type { TenantColumn } from '../../../db/tenant-column';

/** The TLS observations' own tables and stored shapes (migration 0053, docs/quantum.md). */

/**
 * One certificate of an observed chain as an observation keeps it (jsonb, leaf first): the facts
 * of describeCertificate without the DER, the OIDs or anything a later read could not show.
 */
export interface StoredCertificateFact {
  subject: string;
  issuer: string;
  serialNumber: string;
  /** ISO 8601 (UTC). */
  notBefore: string;
  notAfter: string;
  keyAlgorithm: KeyAlgorithm;
  keySize: number | null;
  curve: string | null;
  parameterSet: string | null;
  signatureAlgorithm: string;
  fingerprintSha256: string;
  classification: QuantumClassification;
  selfSigned: boolean;
  isCa: boolean;
}

export interface QuantumTlsCertificateNoticeTable {
  tenant_id: TenantColumn;
  endpoint_id: string;
  fingerprint_sha256: string;
  not_after: Date;
  notified_at: Generated<Date>;
}

export interface QuantumTlsTables {
  quantum_tls_certificate_notices: QuantumTlsCertificateNoticeTable;
}
