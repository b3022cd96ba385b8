import type { Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

export interface AuditLogTable {
  tenant_id: TenantColumn;
  id: string;
  occurred_at: Generated<Date>;
  actor_token_id: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  outcome: string;
  status_code: number;
  ip: string | null;
  correlation_id: string;
  details: JSONColumnType<Record<string, unknown>> | null;
}

export interface AuditLogTables {
  audit_log: AuditLogTable;
}
