import type { Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';
import type { DependencySource, Resolution } from '../../ecosystems/types';

export type BusinessCriticality = 'low' | 'medium' | 'high' | 'critical';
export type LifecycleStatus = 'active' | 'maintenance' | 'deprecated' | 'archived';

export interface RepositoryTable {
  tenant_id: TenantColumn;
  id: string;
  connection_id: string | null;
  provider: string;
  external_id: string | null;
  name: string;
  full_name: string;
  clone_url: string;
  web_url: string | null;
  default_branch: Generated<string>;
  workspace_id: string | null;
  team_id: string | null;
  business_criticality: BusinessCriticality | null;
  lifecycle_status: Generated<LifecycleStatus>;
  deploy_key_sealed: string | null;
  last_scan_id: string | null;
  last_scanned_at: Date | null;
  /** The last scan that finished in any final state (completed, failed, cancelled). */
  last_finished_scan_id: Generated<string | null>;
  /** The dependency generation readers see (the scan that stored it); null before any. */
  dependency_scan_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/**
 * One dependency of a repository as its latest completed scan (or SBOM import) found it.
 * `repository_dependencies` is a read-only view of each repository's current generation;
 * `repository_dependency_rows` is the table the scans domain writes (generations by scan id).
 */
export interface RepositoryDependencyTable {
  tenant_id: TenantColumn;
  id: string;
  repository_id: string;
  scan_id: string;
  package_id: string;
  ecosystem: string;
  name: string;
  version: string | null;
  resolution: Resolution;
  purl: string;
  scope: string;
  direct: boolean;
  file: string;
  line: number | null;
  source: JSONColumnType<DependencySource>;
  parents: string[];
}

export interface RepositoryTables {
  repositories: RepositoryTable;
  repository_dependencies: RepositoryDependencyTable;
  repository_dependency_rows: RepositoryDependencyTable;
}
