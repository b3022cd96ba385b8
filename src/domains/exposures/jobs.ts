import { Type } from 'typebox';
import { withTenant } from '../../db/tenant-scope';
import { syncOsvFeeds } from '../../intel/advisory-store/sync';
import { defineJob, jobDefinition } from '../../jobs/contract';
import type { JobDefinition, JobEnvelope } from '../../jobs/queue';
import { emitEvent } from '../events';
import type { JobDeps } from '../job-deps';
import { packageIdsOf, refreshExposures, repositoriesUsing } from './matching/refresh';
import { ADVISORY_CHANGES, REMATCH } from './matching/rematch-request';
import { reopenExpiredAcceptances, tenantsWithExpiredAcceptances } from './store';

/** Matches a repository's new dependencies against the store (subscribed to dependencies.changed). */
export const MATCH_DEPENDENCIES = defineJob({
  name: 'exposures.match-dependencies',
  payload: Type.Object({ repositoryId: Type.String(), scanId: Type.String() }),
  expireInSeconds: 600,
  retryLimit: 5,
});
/** The most package ids an `exposures.refreshed` event lists. */
const MAX_EVENT_PACKAGES = 1000;
/** Reopens accepted risks whose expiry passed, for every tenant that has one (schedule). */
export const REOPEN_EXPIRED = defineJob({
  name: 'exposures.reopen-expired',
  payload: Type.Object({}),
  expireInSeconds: 300,
  retryLimit: 3,
  schedule: '*/10 * * * *',
});
/**
 * The scheduled OSV feed sync (src/intel/advisory-store/sync.ts does the work); its schedule is a
 * setting (OSV_SYNC_SCHEDULE).
 */
export const OSV_SYNC = defineJob({
  name: 'osv.sync',
  payload: Type.Object({}),
  expireInSeconds: 3600,
  retryLimit: 2,
});

export { REMATCH };

function tenantOf(envelope: JobEnvelope<unknown>): string {
  if (!envelope.tenantId) throw new Error('this job needs a tenant');
  return envelope.tenantId;
}

/**
 * The vulnerability jobs: matching after a scan, re-matching after an advisory change (fanned out
 * per tenant by the import), the OSV feed sync and the acceptance expiry. The matcher runs on
 * `dependencies.changed` (src/background-jobs.ts subscribes it).
 */
export function vulnerabilityJobs(deps: JobDeps): JobDefinition[] {
  const matchDependencies = jobDefinition(MATCH_DEPENDENCIES, async (envelope) => {
    const tenantId = tenantOf(envelope);
    const { repositoryId, scanId } = envelope.data;
    const result = await withTenant(deps.database, tenantId, async (db) => {
      const refreshed = await refreshExposures(db, { tenantId, repositoryId, scanId });
      // Policies see the exposures of this scan only after matching (docs/policies.md).
      await emitEvent(db, 'exposures.refreshed', {
        tenantId,
        data: typeof scanId === 'string' ? { repositoryId, scanId } : { repositoryId },
        correlationId: envelope.correlationId,
      });
      return refreshed;
    });
    deps.log('exposures matched', { tenantId, ...envelope.data, ...result });
  });
  const rematch = jobDefinition(REMATCH, async (envelope) => {
    const tenantId = tenantOf(envelope);
    const packages = Array.isArray(envelope.data.packages) ? envelope.data.packages : [];
    const totals = { repositories: 0, opened: 0, reopened: 0, seen: 0, fixed: 0 };
    await withTenant(deps.database, tenantId, async (db) => {
      // Policies re-evaluate only these packages' dependencies (past a thousand, all of them).
      const packageIds =
        packages.length <= MAX_EVENT_PACKAGES ? await packageIdsOf(db, packages) : null;
      for (const repositoryId of await repositoriesUsing(db, packages)) {
        const result = await refreshExposures(db, { tenantId, repositoryId, packages });
        // An advisory of a package it uses changed (severity, fixes, aliases): its policies see it.
        await emitEvent(db, 'exposures.refreshed', {
          tenantId,
          data: packageIds ? { repositoryId, packageIds } : { repositoryId },
          correlationId: envelope.correlationId,
        });
        totals.repositories++;
        totals.opened += result.opened;
        totals.reopened += result.reopened;
        totals.seen += result.seen;
        totals.fixed += result.fixed;
      }
    });
    deps.log('exposures re-matched after an advisory change', { tenantId, ...totals });
  });
  const sync = jobDefinition(
    OSV_SYNC,
    async () => {
      if (!deps.config.osv.feedUrl) {
        deps.log('OSV sync skipped: no advisory feed (OSV_FEED_URL)');
        return;
      }
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      const reports = await syncOsvFeeds(deps.database, deps.config.osv, ADVISORY_CHANGES).catch(
        (error: unknown) => {
          deps.observe?.feedFetched('osv', 'failed', seconds());
          throw error;
        },
      );
      // One observation per sync: failed if any file failed, imported if any changed.
      const outcome = reports.some((r) => r.status === 'failed')
        ? 'failed'
        : reports.some((r) => r.status === 'imported')
          ? 'imported'
          : 'not_modified';
      deps.observe?.feedFetched('osv', outcome, seconds());
      for (const report of reports) {
        if (report.status !== 'failed') deps.log('OSV feed synced', report);
        // One line that says what failed and which setting changes it (docs/registries.md).
        else
          deps.log(
            `OSV feed ${report.url} cannot be used (${report.error}): set OSV_FEED_URL to a reachable export, or OSV_FEED_URL=off`,
            report,
          );
      }
    },
    { schedule: deps.config.osv.syncSchedule },
  );
  const reopen = jobDefinition(REOPEN_EXPIRED, async () => {
    for (const tenantId of await tenantsWithExpiredAcceptances(deps.database.system)) {
      const reopened = await withTenant(deps.database, tenantId, (db) =>
        reopenExpiredAcceptances(db, tenantId),
      );
      deps.log('expired risk acceptances reopened', { tenantId, reopened });
    }
  });
  return [matchDependencies, rematch, sync, reopen];
}
