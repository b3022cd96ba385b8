import type { Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../db/tenant-column';

export interface JobOutboxTable {
  tenant_id: TenantColumn;
  id: string;
  job_name: string;
  correlation_id: string | null;
  data: JSONColumnType<object>;
  created_at: Generated<Date>;
}

export interface JobTables {
  job_outbox: JobOutboxTable;
}
