import type { TenantColumn } from '../../db/tenant-column';

/** A tenant's drift snapshots per scan (migration 0007): the repository's total and each dependency. */
export interface RepositoryDriftTable {
  tenant_id: TenantColumn;
  repository_id: string;
  scan_id: string;
  scanned_at: Date;
  computed_at: Date;
  dependency_count: number;
  measured_count: number;
  pending_count: number;
  outdated_count: number;
  libyear_total: number;
  major_behind: number;
  minor_behind: number;
  patch_behind: number;
  deprecated_count: number;
  yanked_count: number;
  end_of_life_count: number;
}

export type DependencyDriftState = 'measured' | 'pending' | 'unknown_version' | 'not_in_registry';

export interface DependencyDriftTable {
  tenant_id: TenantColumn;
  repository_id: string;
  scan_id: string;
  package_id: string;
  used_version: string;
  resolution: string;
  state: DependencyDriftState;
  compared_version: string | null;
  latest_stable: string | null;
  libyear: number | null;
  major_behind: number | null;
  minor_behind: number | null;
  patch_behind: number | null;
  deprecated: boolean;
  yanked: boolean;
  end_of_life: boolean;
}

export interface DriftTables {
  repository_drift: RepositoryDriftTable;
  dependency_drift: DependencyDriftTable;
}
