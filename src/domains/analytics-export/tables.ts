import type { ColumnType, Generated } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

export const DESTINATION_KINDS = ['postgresql', 'https'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

export const RUN_STATES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type RunState = (typeof RUN_STATES)[number];

export type RunTrigger = 'manual' | 'schedule';

export interface AnalyticsExportDestinationsTable {
  tenant_id: TenantColumn;
  id: string;
  kind: DestinationKind;
  name: string;
  target: string;
  secret_sealed: string;
  created_at: Generated<Date>;
  last_run_at: Date | null;
}

export interface AnalyticsExportRunsTable {
  tenant_id: TenantColumn;
  id: string;
  destination_id: string;
  state: Generated<RunState>;
  trigger: RunTrigger;
  rows: Generated<number>;
  bytes: Generated<number>;
  duration_ms: number | null;
  tables: ColumnType<Record<string, number>, string | undefined, string>;
  errors: Generated<string[]>;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface AnalyticsExportWatermarksTable {
  tenant_id: TenantColumn;
  destination_id: string;
  fact: string;
  last_at: Date;
  last_id: string;
  updated_at: Generated<Date>;
}

export interface AnalyticsExportTables {
  analytics_export_destinations: AnalyticsExportDestinationsTable;
  analytics_export_runs: AnalyticsExportRunsTable;
  analytics_export_watermarks: AnalyticsExportWatermarksTable;
}
