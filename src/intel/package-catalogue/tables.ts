import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { MaintainerChange, PackageMetadata } from '../../ecosystems/registry-types';

/**
 * Kysely types of the shared package catalogue (`packages` in migration 0002, the rest in 0007): one row per package
 * and what the registries said about it. No tenant: read and written on the system connection.
 */

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
  /** Null for rows fetched before migration 0032 and not filled by it (risk then unknown). */
  risk_inputs: JSONColumnType<VersionRiskInputs | null, string | null, string | null>;
}

/**
 * What the risk indicators need of a package's version list (migration 0032; computed by
 * versionRiskInputs in risk-inputs.ts): the newest release by time and the maintainer change on the
 * newest release. Dates are ISO strings (jsonb).
 */
export interface VersionRiskInputs {
  newestRelease: { version: string; publishedAt: string } | null;
  latestMaintainerChange: { version: string; previousVersion: string; added: string[] } | null;
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
  // The registry gave no answer at all (connection refused, DNS, timeout): retried like
  // 'deferred', but a failure of the registry, not a wait it asked for.
  | 'unreachable'
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

/** The catalogue: one row per (ecosystem, normalised name); no tenant. */
export interface PackageTable {
  id: string;
  ecosystem: string;
  name: string;
  /** purl without a version: the package's identity. */
  purl: string;
  created_at: Generated<Date>;
}

export interface PackageCatalogueTables {
  packages: PackageTable;
  package_metadata: PackageMetadataTable;
  package_versions: PackageVersionTable;
  package_enrichment: PackageEnrichmentTable;
  registry_backoff: RegistryBackoffTable;
  package_health_snapshots: PackageHealthSnapshotTable;
}
