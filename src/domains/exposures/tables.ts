import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';
import type { Resolution } from '../../ecosystems/types';
import type { StoredRange } from '../../intel/advisory-store/tables';
import type { Reachability, ReachabilityEvidence } from '../../intel/reachability/analyse';

export const EXPOSURE_STATUSES = [
  'open',
  'investigating',
  'affected',
  'not_affected',
  'false_positive',
  'accepted_risk',
  'fixed',
] as const;
export type ExposureStatus = (typeof EXPOSURE_STATUSES)[number];

export type FixedReason = 'dependency_removed' | 'advisory_withdrawn' | 'no_longer_affected';

/** The affected entry of one advisory that matched a dependency. */
export interface MatchedEntry {
  advisoryId: string;
  ranges: StoredRange[];
  versions: string[];
}

export interface VulnerabilityExposureTable {
  tenant_id: TenantColumn;
  id: string;
  repository_id: string;
  package_id: string;
  ecosystem: string;
  package_name: string;
  version: string;
  resolution: Resolution;
  possibly_affected: boolean;
  /** Why a matched version is only possibly affected (`replaced by <module>`), else null. */
  possibly_affected_reason: Generated<string | null>;
  vulnerability_id: string;
  /** Import-level reachability copied from the repository's latest scan (docs/reachability.md). */
  reachability: Generated<Reachability>;
  reachability_evidence: ColumnType<
    ReachabilityEvidence | null,
    string | null | undefined,
    string | null
  >;
  reachability_reason: Generated<string | null>;
  advisory_ids: string[];
  affected_ranges: JSONColumnType<MatchedEntry[]>;
  fixed_versions: string[];
  files: string[];
  status: ExposureStatus;
  justification: string | null;
  status_reason: string | null;
  accepted_until: Date | null;
  status_changed_at: Date | null;
  status_changed_by_token_id: string | null;
  fixed_reason: FixedReason | null;
  first_seen_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  fixed_at: Date | null;
  reintroduced_count: Generated<number>;
  last_scan_id: string | null;
  /** The triage rule whose decision this exposure carries (docs/triage.md). */
  triage_rule_id: Generated<string | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ExposureTables {
  vulnerability_exposures: VulnerabilityExposureTable;
}
