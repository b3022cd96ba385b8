import type { JobDefinition, JobEnvelope } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { RUN_SCAN_JOB, type RunScanJob } from './service';
import {
  removeAbandonedCheckouts,
  runScanJob,
  SWEEP_STALE_SCANS_JOB,
  sweepStaleScans,
} from './worker';

/** The scan domain's jobs: one run per scan, and the stale-scan sweep every minute. */
export function scanJobs(deps: JobDeps): JobDefinition<unknown>[] {
  return [
    {
      name: RUN_SCAN_JOB,
      // Longer than any checkout may take plus extraction: an expired job is retried by pg-boss,
      // and the retry finds the scan no longer queued (no second run); the sweep recovers it.
      expireInSeconds: deps.config.scans.checkoutTimeoutSeconds + 900,
      retryLimit: 2,
      handle: (envelope) => runScanJob(deps, envelope as JobEnvelope<RunScanJob>),
    },
    {
      name: SWEEP_STALE_SCANS_JOB,
      expireInSeconds: 300,
      retryLimit: 1,
      schedule: '* * * * *',
      handle: async () => {
        const swept = await sweepStaleScans(deps);
        if (swept.requeued + swept.failed > 0) deps.log('stale scans recovered', swept);
        // Older than any run can live: the checkout timeout plus an hour for extraction.
        const { checkoutTimeoutSeconds } = deps.config.scans;
        const removed = await removeAbandonedCheckouts((checkoutTimeoutSeconds + 3600) * 1000);
        if (removed > 0) deps.log('abandoned scan checkouts removed', { removed });
      },
    },
  ];
}
