import { MATCH_DEPENDENCIES_JOB, vulnerabilityJobs } from './domains/exposures/jobs';
import type { JobDeps } from './domains/job-deps';
import { DEPENDENCIES_CHANGED_JOB, packageJobs } from './domains/packages/jobs';
import { sbomJobs } from './domains/sbom/jobs';
import { scanJobs } from './domains/scans/jobs';
import { tenantJobs } from './domains/tenants/jobs';
import type { EventSubscriptions } from './jobs/outbox';
import type { JobDefinition } from './jobs/queue';

/**
 * Part of the composition root, beside app.ts: everything the service runs in the background,
 * readable in one file (docs/architecture.md#jobs-and-events). Domains export their job
 * definitions; this file lists them and says which jobs each internal event starts.
 */

/** Event → the jobs it starts, one job per subscriber (each retries on its own). */
export const EVENT_SUBSCRIPTIONS: EventSubscriptions = {
  'dependencies.changed': [MATCH_DEPENDENCIES_JOB, DEPENDENCIES_CHANGED_JOB],
};

/** Every job the worker registers. */
export function jobDefinitions(deps: JobDeps): JobDefinition<unknown>[] {
  return [
    ...tenantJobs(deps),
    ...scanJobs(deps),
    ...sbomJobs(deps),
    ...vulnerabilityJobs(deps),
    ...packageJobs(deps),
  ];
}
