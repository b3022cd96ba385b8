import type { ApiTokenTables } from '../domains/api-tokens/tables';
import type { AuditLogTables } from '../domains/audit-log/tables';
import type { PackageTables } from '../domains/packages/tables';
import type { RepositoryTables } from '../domains/repositories/tables';
import type { ScanTables } from '../domains/scans/tables';
import type { SourceControlTables } from '../domains/source-control/tables';
import type { TenantTables } from '../domains/tenants/tables';
import type { JobTables } from '../jobs/tables';

/** The typed database: each domain declares its own tables in `tables.ts`. */
export interface DB
  extends TenantTables,
    ApiTokenTables,
    AuditLogTables,
    SourceControlTables,
    RepositoryTables,
    ScanTables,
    PackageTables,
    JobTables {}
