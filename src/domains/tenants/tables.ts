import type { Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

export interface TenantTable {
  id: string;
  name: string;
  plan: string;
  is_demo: Generated<boolean>;
  expires_at: Date | null;
  created_at: Generated<Date>;
  /** Set by DELETE /api/v1/tenants/current; the purge job removes the row itself last. */
  deletion_requested_at: Generated<Date | null>;
}

export interface TenantApiCallsTable {
  tenant_id: TenantColumn;
  minute: Date;
  calls: number;
}

/**
 * Reference table (no tenant_id): the keys that must be unique across tenants and name the one
 * tenant an outside request belongs to (migration 0059, docs/scaling.md#cross-tenant-queries).
 * Kept by triggers on the tenant tables; read by the system connection only.
 */
export interface TenantRouteTable {
  kind: 'api-token' | 'billing-customer' | 'scm-a-installation';
  key: string;
  owner_tenant: string;
}

/** System table (no tenant_id): the record of a deletion outlives the tenant. */
export interface TenantDeletionTable {
  id: string;
  deleted_tenant_id: string;
  requested_by_token_id: string;
  requested_at: Generated<Date>;
  completed_at: Date | null;
  rows_deleted: Generated<string>;
}

export type DataExportState = 'queued' | 'running' | 'completed' | 'failed';

export interface DataExportManifestFile {
  name: string;
  table: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface DataExportManifest {
  exportId: string;
  tenantId: string;
  snapshotAtUtc: string;
  files: DataExportManifestFile[];
  /** Per table, the columns left out (sealed secrets, token hashes, archives). */
  withheldColumns: Record<string, string[]>;
}

export interface TenantDataExportTable {
  tenant_id: TenantColumn;
  id: string;
  state: Generated<DataExportState>;
  requested_by_token_id: string;
  archive: Buffer | null;
  archive_bytes: string | null;
  archive_sha256: string | null;
  manifest: JSONColumnType<DataExportManifest | null, string | null, string | null>;
  error: string | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at: Date;
}

export interface TenantTables {
  tenants: TenantTable;
  tenant_api_calls: TenantApiCallsTable;
  tenant_deletions: TenantDeletionTable;
  tenant_routes: TenantRouteTable;
  tenant_data_exports: TenantDataExportTable;
}
