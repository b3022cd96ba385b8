import { sql } from 'kysely';
import { Type } from 'typebox';
import { withTenant } from '../../db/tenant-scope';
import { defineJob, jobDefinition } from '../../jobs/contract';
import type { JobDefinition } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { foldCountChanges, recountCounts } from './counts';
import { refreshRepositoryState, utcDay, writeDailyRows } from './rollups';
import { refreshTenantSummary } from './summary';

/**
 * One repository's rollups and the tenant's sums for today, on every change that moves them:
 * subscribed to `exposures.status_changed`, `drift.updated`, `policy_violations.changed` (which
 * a scan's policy evaluation emits when it ends: a scan's refresh sees its exposures and
 * violations) and `repository.deleted` (src/background-jobs.ts).
 */
export const REFRESH_REPOSITORY_ROLLUPS = defineJob({
  name: 'analytics.refresh-repository',
  payload: Type.Object({ repositoryId: Type.String() }),
  expireInSeconds: 600,
  retryLimit: 5,
});
/**
 * The same after `exposures.refreshed`, but only for an advisory change's re-match: a scan's
 * matching (the event names its scan) starts no job, since its evaluation's
 * `policy_violations.changed` refreshes the rollups at the end of the scan's chain. One refresh
 * job per scan, not one more that would pass over it.
 */
export const REFRESH_AFTER_MATCH = defineJob({
  name: 'analytics.refresh-after-match',
  // The `exposures.refreshed` payload.
  payload: Type.Object({ repositoryId: Type.String(), scanId: Type.Optional(Type.String()) }),
  expireInSeconds: 600,
  retryLimit: 5,
  accepts: (data) => data.scanId === undefined,
});
/** Every tenant: the whole current state again, then yesterday's and today's rows. */
export const DAILY_ROLLUPS = defineJob({
  name: 'analytics.daily',
  payload: Type.Object({}),
  expireInSeconds: 3600,
  retryLimit: 3,
  schedule: '10 0 * * *',
});

export async function refreshRepositoryRollups(
  deps: JobDeps,
  tenantId: string,
  repositoryId: string,
  now = new Date(),
): Promise<void> {
  await withTenant(deps.database, tenantId, async (db) => {
    const exists = await db
      .selectFrom('repositories')
      .select('id')
      .where('id', '=', repositoryId)
      .executeTakeFirst();
    if (exists) {
      await refreshRepositoryState(db, repositoryId);
      await writeDailyRows(db, utcDay(now), { kind: 'repository', repositoryId });
    }
    await writeDailyRows(db, utcDay(now), { kind: 'tenant' });
    // Also when the repository is gone: its state rows went with it.
    await refreshTenantSummary(db);
  });
  // Its own short transaction: the fold's lock is not held through the refresh above.
  await withTenant(deps.database, tenantId, foldCountChanges);
}

/** The daily pass of one tenant: yesterday's flows are final, today's row starts. */
export async function runDailyRollups(deps: JobDeps, tenantId: string, now = new Date()) {
  const yesterday = utcDay(new Date(now.getTime() - 86_400_000));
  await withTenant(deps.database, tenantId, async (db) => {
    await refreshRepositoryState(db, null);
    await refreshTenantSummary(db);
    await writeDailyRows(db, yesterday, { kind: 'all' });
    await writeDailyRows(db, utcDay(now), { kind: 'all' });
  });
  await withTenant(deps.database, tenantId, recountCounts);
}

export function analyticsJobs(deps: JobDeps): JobDefinition[] {
  return [
    jobDefinition(REFRESH_REPOSITORY_ROLLUPS, async ({ tenantId, data }) => {
      if (!tenantId) return;
      await refreshRepositoryRollups(deps, tenantId, data.repositoryId);
    }),
    jobDefinition(REFRESH_AFTER_MATCH, async ({ tenantId, data }) => {
      if (!tenantId) return;
      await refreshRepositoryRollups(deps, tenantId, data.repositoryId);
    }),
    jobDefinition(DAILY_ROLLUPS, async () => {
      const tenants = await deps.database.system
        .selectFrom('tenants')
        .select('id')
        .where('deletion_requested_at', 'is', null)
        .where((eb) =>
          eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]),
        )
        .execute();
      for (const tenant of tenants) await runDailyRollups(deps, tenant.id);
      deps.log('analytics daily rollups', { tenants: tenants.length });
    }),
  ];
}
