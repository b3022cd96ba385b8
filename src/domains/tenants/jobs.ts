import { Type } from 'typebox';
import { defineJob, jobDefinition } from '../../jobs/contract';
import type { JobDefinition } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import {
  DATA_EXPORT,
  deleteExpiredDataExports,
  EXPIRE_DATA_EXPORTS,
  runDataExportJob,
} from './data-export';
import { PURGE_TENANT, purgeTenant } from './deletion';
import { purgeExpiredDemoTenants } from './service';

export const PURGE_DEMO_TENANTS = defineJob({
  name: 'tenants.purge-expired-demos',
  payload: Type.Object({}),
  expireInSeconds: 300,
  retryLimit: 3,
  schedule: '*/15 * * * *',
});

/** The tenant's lifecycle in the background: demo expiry, deletion purges, data exports. */
export function tenantJobs(deps: JobDeps): JobDefinition[] {
  return [
    jobDefinition(PURGE_DEMO_TENANTS, async () => {
      const purged = await purgeExpiredDemoTenants(deps.database);
      deps.log('purged expired demo tenants', { purged });
    }),
    jobDefinition(PURGE_TENANT, async ({ tenantId, data }) => {
      if (!tenantId) return;
      const deleted = await purgeTenant(deps.database, tenantId, data.deletionId);
      deps.log('purged deleted tenant', { tenantId, deleted });
    }),
    jobDefinition(DATA_EXPORT, (envelope) => runDataExportJob(deps, envelope)),
    jobDefinition(EXPIRE_DATA_EXPORTS, async () => {
      const deleted = await deleteExpiredDataExports(deps.database);
      deps.log('deleted expired data exports', { deleted });
    }),
  ];
}
