import type { ColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

/** A tenant's watch on a catalogue package (migration 0007). */
export interface PackageWatchTable {
  tenant_id: TenantColumn;
  package_id: string;
  id: string;
  note: string | null;
  created_by_token_id: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface PackageTables {
  package_watches: PackageWatchTable;
}
