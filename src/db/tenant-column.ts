import type { ColumnType } from 'kysely';

/**
 * The `tenant_id` column of a tenant-owned table: the database fills it from the scoped
 * transaction (`DEFAULT dw_current_tenant()`), so inserts inside a tenant scope may leave it out;
 * row-level security refuses any other tenant's id; it is never updated.
 */
export type TenantColumn = ColumnType<string, string | undefined, never>;
