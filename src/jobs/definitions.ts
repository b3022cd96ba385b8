import type { Database } from '../db/connection';
import { purgeExpiredDemoTenants } from '../domains/tenants/service';
import type { JobDefinition } from './queue';

export const PURGE_DEMO_TENANTS = 'tenants.purge-expired-demos';

/** Every job the service runs, registered in one place (the worker registry). */
export function jobDefinitions(deps: {
  database: Database;
  log: (message: string, details?: object) => void;
}): JobDefinition<unknown>[] {
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
