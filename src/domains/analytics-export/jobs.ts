import { sql } from 'kysely';
import { withTenant } from '../../db/tenant-scope';
import type { JobDefinition, JobEnvelope } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { runExport } from './run';
import { EXPORT_RUN_JOB, queueRun } from './service';
import { listDestinations } from './store';

/** Every destination of every live tenant gets a run of its own (one failing blocks no other). */
export const SCHEDULED_EXPORTS_JOB = 'analytics.export-scheduled';

export async function queueScheduledRuns(deps: JobDeps): Promise<number> {
  const tenants = await deps.database.system
    .selectFrom('tenants')
    .select('id')
    .where('deletion_requested_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .execute();
  let queued = 0;
  for (const tenant of tenants) {
    await withTenant(deps.database, tenant.id, async (db) => {
      for (const destination of await listDestinations(db)) {
        await queueRun(db, {
          tenantId: tenant.id,
          destinationId: destination.id,
          trigger: 'schedule',
        });
        queued++;
      }
    });
  }
  return queued;
}

export function analyticsExportJobs(deps: JobDeps): JobDefinition<unknown>[] {
  return [
    {
      name: EXPORT_RUN_JOB,
      expireInSeconds: 3600,
      retryLimit: 2,
      handle: async (envelope) => {
        const { tenantId, data } = envelope as JobEnvelope<{ runId: string }>;
        if (!tenantId) return;
        await runExport(deps, tenantId, data.runId);
      },
    },
    {
      name: SCHEDULED_EXPORTS_JOB,
      expireInSeconds: 600,
      retryLimit: 1,
      // After the daily rollups (00:10), so yesterday's finished day is in the daily facts.
      schedule: '40 0 * * *',
      handle: async () => {
        const queued = await queueScheduledRuns(deps);
        deps.log('analytics scheduled exports', { runs: queued });
      },
    },
  ];
}
