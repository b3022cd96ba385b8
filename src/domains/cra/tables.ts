import type { Generated } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

/** CRA classes (Art. 7, 8; Annexes III and IV), lower-case as stored. */
export const CRA_CLASSIFICATIONS = [
  'default',
  'important_class_i',
  'important_class_ii',
  'critical',
] as const;
export type CraClassification = (typeof CRA_CLASSIFICATIONS)[number];

/** The status of an Annex I requirement or an Article 13 duty. */
export const ASSESSMENT_STATUSES = ['met', 'partly_met', 'not_met', 'not_assessed'] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

export type AssessmentArea = 'annex_i' | 'duty';

export interface CraProductTable {
  tenant_id: TenantColumn;
  id: string;
  name: string;
  version_line: string;
  manufacturer: string;
  /** A date column, always read as `YYYY-MM-DD` text (store.ts selects it with to_char). */
  support_period_end: string | null;
  classification: CraClassification;
  category: string | null;
  security_contact: string | null;
  cvd_policy_url: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CraProductRepositoryTable {
  tenant_id: TenantColumn;
  product_id: string;
  repository_id: string;
  linked_at: Generated<Date>;
}

export interface CraExploitationTable {
  tenant_id: TenantColumn;
  product_id: string;
  vulnerability_id: string;
  exposure_id: string;
  cve_id: string;
  detected_at: Generated<Date>;
  reported_at: Date | null;
}

export interface CraAssessmentTable {
  tenant_id: TenantColumn;
  product_id: string;
  area: AssessmentArea;
  item: string;
  status: AssessmentStatus;
  note: string;
  evidence_url: string | null;
  assessed_by_token_id: string | null;
  assessed_at: Generated<Date>;
}

export interface CraTables {
  cra_products: CraProductTable;
  cra_product_repositories: CraProductRepositoryTable;
  cra_exploitations: CraExploitationTable;
  cra_assessments: CraAssessmentTable;
}
