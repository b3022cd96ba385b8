import type { JobDefinition, JobEnvelope } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import {
  DATA_EXPORT_JOB,
  type DataExportJob,
  deleteExpiredDataExports,
  EXPIRE_DATA_EXPORTS_JOB,
  runDataExportJob,
} from './data-export';
import { PURGE_TENANT_JOB, type PurgeTenantJob, purgeTenant } from './deletion';
import { purgeExpiredDemoTenants } from './service';

export const PURGE_DEMO_TENANTS = 'tenants.purge-expired-demos';

/** The tenant's lifecycle in the background: demo expiry, deletion purges, data exports. */
export function tenantJobs(deps: JobDeps): JobDefinition<unknown>[] {
  return [
    {
      name: PURGE_DEMO_TENANTS,
      expireInSeconds: 300,
      retryLimit: 3,
      schedule: '*/15 * * * *',
      handle: async () => {
        const purged = await purgeExpiredDemoTenants(deps.database);
        deps.log('purged expired demo tenants', { purged });
      },
    },
    {
      name: PURGE_TENANT_JOB,
      // Batches commit one by one: a retry after a crash continues with what is left.
      expireInSeconds: 3600,
      retryLimit: 10,
      handle: async (envelope) => {
        const { tenantId, data } = envelope as JobEnvelope<PurgeTenantJob>;
        if (!tenantId) return;
        const deleted = await purgeTenant(deps.database, tenantId, data.deletionId);
        deps.log('purged deleted tenant', { tenantId, deleted });
      },
    },
    {
      name: DATA_EXPORT_JOB,
      expireInSeconds: 3600,
      retryLimit: 2,
      handle: (envelope) => runDataExportJob(deps, envelope as JobEnvelope<DataExportJob>),
    },
    {
      name: EXPIRE_DATA_EXPORTS_JOB,
      expireInSeconds: 300,
      retryLimit: 3,
      schedule: '*/15 * * * *',
      handle: async () => {
        const deleted = await deleteExpiredDataExports(deps.database);
        deps.log('deleted expired data exports', { deleted });
      },
    },
  ];
}
