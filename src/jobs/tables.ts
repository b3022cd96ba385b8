import type { Generated, JSONColumnType } from 'kysely';

export interface JobOutboxTable {
  tenant_id: string;
  id: string;
  job_name: string;
  correlation_id: string | null;
  data: JSONColumnType<object>;
  created_at: Generated<Date>;
}

export interface JobTables {
  job_outbox: JobOutboxTable;
}
