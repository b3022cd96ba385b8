import type { JobDefinition } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { purgeExpiredDemoTenants } from './service';

export const PURGE_DEMO_TENANTS = 'tenants.purge-expired-demos';

/** Deletes demo tenants whose time is up (every 15 minutes, no tenant). */
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
  ];
}
