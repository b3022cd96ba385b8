import type { ApiTokenTables } from '../domains/api-tokens/tables';
import type { AuditLogTables } from '../domains/audit-log/tables';
import type { TenantTables } from '../domains/tenants/tables';

/** The typed database: each domain declares its own tables in `tables.ts`. */
export interface DB extends TenantTables, ApiTokenTables, AuditLogTables {}
