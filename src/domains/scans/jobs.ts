import { jobDefinition } from '../../jobs/contract';
import type { JobDefinition } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { sweepLeftoverGenerations } from './dependencies/generations';
import { removeAbandonedCheckouts, SWEEP_STALE_SCANS, sweepStaleScans } from './run/recovery';
import { runScanJob } from './run/worker';
import { RUN_SCAN } from './service';

/**
 * The scan domain's jobs: one run per scan, and a minute job that sweeps stale scans and removes
 * abandoned checkouts (and deletes leftover dependency generations). The sweep that keeps recovery within the stale threshold runs in every
 * worker process at a shorter interval (startStaleScanSweeper, ./recovery.ts); this one is the
 * backstop and the checkout cleaner.
 */
export function scanJobs(deps: JobDeps): JobDefinition[] {
  return [
    // Longer than any checkout may take plus extraction: an expired job is retried by pg-boss,
    // and the retry finds the scan no longer queued (no second run); the sweep recovers it.
    jobDefinition(RUN_SCAN, (envelope) => runScanJob(deps, envelope), {
      expireInSeconds: deps.config.scans.checkoutTimeoutSeconds + 900,
    }),
    jobDefinition(SWEEP_STALE_SCANS, async () => {
      const swept = await sweepStaleScans(deps);
      if (swept.requeued + swept.failed > 0) deps.log('stale scans recovered', swept);
      const generations = await sweepLeftoverGenerations(deps.database);
      if (generations > 0) deps.log('leftover dependency generations deleted', { generations });
      // Older than any run can live: the checkout timeout plus an hour for extraction.
      const { checkoutTimeoutSeconds } = deps.config.scans;
      const removed = await removeAbandonedCheckouts((checkoutTimeoutSeconds + 3600) * 1000);
      if (removed > 0) deps.log('abandoned scan checkouts removed', { removed });
    }),
  ];
}
