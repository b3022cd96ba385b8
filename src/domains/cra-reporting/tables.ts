import type { Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';
import type { ClockKind, ClockState, ClockTrigger } from './clocks/rules';

export const SEVERE_BECAUSE = ['data_or_functions', 'malicious_code'] as const;
export type SevereBecause = (typeof SEVERE_BECAUSE)[number];

export const PACK_STATES = ['queued', 'generating', 'ready', 'failed'] as const;
export type PackState = (typeof PACK_STATES)[number];

export interface CraIncidentTable {
  tenant_id: TenantColumn;
  id: string;
  product_id: string;
  title: string;
  description: Generated<string>;
  severe_because: SevereBecause[];
  aware_at: Date;
  recorded_by_token_id: string | null;
  recorded_at: Generated<Date>;
}

export interface CraClockTable {
  tenant_id: TenantColumn;
  id: string;
  product_id: string;
  trigger: ClockTrigger;
  vulnerability_id: string | null;
  exposure_id: string | null;
  incident_id: string | null;
  kind: ClockKind;
  started_at: Date;
  due_at: Date;
  state: Generated<ClockState>;
  start_note: string | null;
  started_by_token_id: string | null;
  due_alerted_at: Date | null;
  missed_at: Date | null;
  submitted_at: Date | null;
  submission_reference: string | null;
  submission_note: string | null;
  submitted_by_token_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CraReportPackTable {
  tenant_id: TenantColumn;
  id: string;
  product_id: string;
  state: Generated<PackState>;
  requested_by_token_id: string | null;
  content: JSONColumnType<object | null, string | null, string | null>;
  pdf: Buffer | null;
  error: string | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface CraReportingTables {
  cra_incidents: CraIncidentTable;
  cra_clocks: CraClockTable;
  cra_report_packs: CraReportPackTable;
}
