import type { Config } from '../config';
import type { Database } from '../db/connection';
import { vulnerabilityJobs } from '../domains/exposures/jobs';
import { packageJobs } from '../domains/packages/jobs';
import { sbomJobs } from '../domains/sbom/jobs';
import { scanJobs } from '../domains/scans/jobs';
import { purgeExpiredDemoTenants } from '../domains/tenants/service';
import type { SecretBox } from '../security/secret-box';
import type { JobDefinition } from './queue';

export const PURGE_DEMO_TENANTS = 'tenants.purge-expired-demos';

/** What job handlers get: the same dependencies as the HTTP app, minus HTTP. */
export interface JobDeps {
  database: Database;
  config: Config;
  secretBox: SecretBox;
  log: (message: string, details?: object) => void;
}

/**
 * Every job the service runs, registered in one place (the worker registry). Domains export a
 * `jobs(deps)` function returning their definitions; event subscriptions are made here too
 * (`subscribe` from ./outbox), so that the list of what runs is readable in one file.
 */
export function jobDefinitions(deps: JobDeps): JobDefinition<unknown>[] {
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
    ...scanJobs(deps),
    ...sbomJobs(deps),
    ...vulnerabilityJobs(deps),
    ...packageJobs(deps),
  ];
}
