import type { ColumnType, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';
import type { MaintainerChange, PackageMetadata } from '../../ecosystems/registry-types';

/** Kysely types of migration 0007 (package intelligence). Catalogue tables have no tenant. */

export type MetadataStatus = 'found' | 'not_found';

export interface PackageMetadataTable {
  package_id: string;
  status: MetadataStatus;
  latest_stable: string | null;
  latest: string | null;
  deprecated: string | null;
  successor: string | null;
  licence: string | null;
  repository_url: string | null;
  homepage: string | null;
  description: string | null;
  maintainers: string[];
  maintainer_changes: JSONColumnType<MaintainerChange[]>;
  downloads: number | null;
  downloads_period: string | null;
  version_count: ColumnType<number, number | undefined, number>;
  first_release_at: Date | null;
  last_release_at: Date | null;
  latest_stable_released_at: Date | null;
  releases_last_year: ColumnType<number, number | undefined, number>;
  cadence_days: number | null;
  install_scripts: string[] | null;
  etag: string | null;
  last_modified: string | null;
  notes: JSONColumnType<string[]>;
  raw: JSONColumnType<PackageMetadata | null, string | null, string | null>;
  fetched_at: Date;
  changed_at: Date;
}

export interface PackageVersionTable {
  package_id: string;
  version: string;
  ordinal: number;
  published_at: Date | null;
  deprecated: string | null;
  yanked: boolean;
  yanked_reason: string | null;
  prerelease: boolean;
  licence: string | null;
  maintainers: string[] | null;
  published_by: string | null;
  install_scripts: string[] | null;
  downloads: number | null;
}

export type EnrichmentOutcome =
  | 'fetched'
  | 'not_modified'
  | 'not_found'
  | 'deferred'
  | 'failed'
  | 'disabled';

export interface PackageEnrichmentTable {
  package_id: string;
  ecosystem: string;
  due_at: Date;
  attempts: ColumnType<number, number | undefined, number>;
  last_attempt_at: Date | null;
  last_outcome: EnrichmentOutcome | null;
  last_error: string | null;
}

export interface RegistryBackoffTable {
  ecosystem: string;
  until: Date;
  reason: string;
}

export interface PackageHealthSnapshotTable {
  package_id: string;
  snapshot_date: string;
  computed_at: Date;
  signals: JSONColumnType<object>;
  default_score: number | null;
}

export interface PackageWatchTable {
  tenant_id: TenantColumn;
  package_id: string;
  id: string;
  note: string | null;
  created_by_token_id: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

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

export interface PackageIntelTables {
  package_metadata: PackageMetadataTable;
  package_versions: PackageVersionTable;
  package_enrichment: PackageEnrichmentTable;
  registry_backoff: RegistryBackoffTable;
  package_health_snapshots: PackageHealthSnapshotTable;
  package_watches: PackageWatchTable;
  repository_drift: RepositoryDriftTable;
  dependency_drift: DependencyDriftTable;
}
