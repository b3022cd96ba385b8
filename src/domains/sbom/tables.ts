import type { Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';
import type { SbomFormat, SbomGraph } from '../../sbom/types';

export type SbomExportFormat = 'cyclonedx-1.6' | 'spdx-2.3';
export type SbomExportState = 'queued' | 'running' | 'completed' | 'failed';

export interface SbomImportTable {
  tenant_id: TenantColumn;
  id: string;
  repository_id: string;
  scan_id: string;
  format: SbomFormat;
  spec_version: string;
  tool: string | null;
  component_count: number;
  document_sha256: string;
  document_bytes: number;
  /** The read graph, until the import job has stored it (then null). */
  graph: JSONColumnType<SbomGraph | null, string | null, string | null>;
  warnings: JSONColumnType<string[], string, string>;
  created_at: Generated<Date>;
  processed_at: Date | null;
}

export interface SbomExportTable {
  tenant_id: TenantColumn;
  id: string;
  repository_id: string;
  format: SbomExportFormat;
  state: Generated<SbomExportState>;
  scan_id: string | null;
  component_count: number | null;
  /** The generated JSON document, exactly as downloaded. */
  document: string | null;
  document_bytes: number | null;
  document_sha256: string | null;
  error: string | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface SbomTables {
  sbom_imports: SbomImportTable;
  sbom_exports: SbomExportTable;
}
