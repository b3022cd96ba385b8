import type { Generated } from 'kysely';

export interface TenantTable {
  id: string;
  name: string;
  plan: string;
  is_demo: Generated<boolean>;
  expires_at: Date | null;
  created_at: Generated<Date>;
}

export interface TenantTables {
  tenants: TenantTable;
}
