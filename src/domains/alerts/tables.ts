import type { Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

export const ALERT_STATUSES = ['open', 'acknowledged'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export interface AlertRuleTable {
  tenant_id: TenantColumn;
  id: string;
  name: string;
  kind: string;
  enabled: Generated<boolean>;
  repository_ids: Generated<string[]>;
  ecosystems: Generated<string[]>;
  min_severity: string | null;
  settings: JSONColumnType<Record<string, unknown>>;
  dedupe_window_minutes: number;
  channels: Generated<string[]>;
  created_by_token_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface AlertTable {
  tenant_id: TenantColumn;
  id: string;
  rule_id: string;
  rule_name: string;
  kind: string;
  severity: string | null;
  status: Generated<AlertStatus>;
  subject: string;
  title: string;
  repository_ids: Generated<string[]>;
  package_id: string | null;
  payload: JSONColumnType<Record<string, unknown>>;
  raised_at: Generated<Date>;
  acknowledged_at: Date | null;
  acknowledged_by_token_id: string | null;
  acknowledgement_note: string | null;
}

export interface AlertDedupeTable {
  tenant_id: TenantColumn;
  rule_id: string;
  subject: string;
  last_raised_at: Date;
  quiet_until: Date;
}

export interface AlertTables {
  alert_rules: AlertRuleTable;
  alerts: AlertTable;
  alert_dedupe: AlertDedupeTable;
}
