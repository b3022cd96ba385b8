import type { Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';
import type { Reachability, ReachabilityEvidence } from '../../intel/reachability/analyse';

export type ScanState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type ScanTrigger = 'manual' | 'push' | 'sbom' | 'retry';
export type ScanFailureCause = 'input' | 'service';
export type ScanLogLevel = 'info' | 'warn' | 'error';

export interface ScanTable {
  tenant_id: TenantColumn;
  id: string;
  repository_id: string;
  state: Generated<ScanState>;
  trigger: ScanTrigger;
  branch: string | null;
  commit_sha: string | null;
  queued_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
  heartbeat_at: Date | null;
  attempt: Generated<number>;
  error: string | null;
  /** Whose failure a failed scan's is (migration 0038): its repository's, or the service's. */
  failure_cause: ScanFailureCause | null;
  counts_by_ecosystem: JSONColumnType<Record<string, number>>;
  dependency_count: Generated<number>;
  file_count: Generated<number>;
}

export interface ScanLogTable {
  tenant_id: TenantColumn;
  id: string;
  scan_id: string;
  logged_at: Generated<Date>;
  level: ScanLogLevel;
  step: string;
  message: string;
}

/** A dependency generation that is not current: being stored, or retired and being deleted. */
export type DependencyGenerationState = 'storing' | 'retired';

export interface DependencyGenerationTable {
  tenant_id: TenantColumn;
  scan_id: string;
  repository_id: string;
  state: DependencyGenerationState;
  updated_at: Generated<Date>;
}

/** One npm / PyPI / Go package's import-level reachability (docs/reachability.md). */
export interface RepositoryReachabilityTable {
  tenant_id: TenantColumn;
  repository_id: string;
  scan_id: string;
  ecosystem: string;
  name: string;
  reachability: Reachability;
  evidence: JSONColumnType<ReachabilityEvidence | null, string | null, string | null>;
  reason: string | null;
}

/**
 * When a repository first had a package among its current dependencies (migration 0058): the
 * generations replace each other, so this is the only memory of what is new.
 */
export interface DependencyFirstSeenTable {
  tenant_id: TenantColumn;
  repository_id: string;
  package_id: string;
  first_seen_at: Date;
  first_seen_scan_id: string;
}

export interface ScanTables {
  scans: ScanTable;
  dependency_first_seen: DependencyFirstSeenTable;
  repository_reachability: RepositoryReachabilityTable;
  scan_logs: ScanLogTable;
  dependency_generations: DependencyGenerationTable;
}
