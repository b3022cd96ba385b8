import { sql } from 'kysely';
import { Type } from 'typebox';
import { withTenant } from '../../db/tenant-scope';
import { defineJob, jobDefinition } from '../../jobs/contract';
import type { JobDefinition } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { runExport } from './run';
import { EXPORT_RUN, queueRun } from './service';
import { listDestinations } from './store';

/** Every destination of every live tenant gets a run of its own (one failing blocks no other). */
export const SCHEDULED_EXPORTS = defineJob({
  name: 'analytics.export-scheduled',
  payload: Type.Object({}),
  expireInSeconds: 600,
  retryLimit: 1,
  // After the daily rollups (00:10), so yesterday's finished day is in the daily facts.
  schedule: '40 0 * * *',
});

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

export function analyticsExportJobs(deps: JobDeps): JobDefinition[] {
  return [
    jobDefinition(EXPORT_RUN, async ({ tenantId, data }) => {
      if (!tenantId) return;
      await runExport(deps, tenantId, data.runId);
    }),
    jobDefinition(SCHEDULED_EXPORTS, async () => {
      const queued = await queueScheduledRuns(deps);
      deps.log('analytics scheduled exports', { runs: queued });
    }),
  ];
}
