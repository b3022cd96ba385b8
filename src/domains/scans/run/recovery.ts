import { lstat, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from 'typebox';
import type { ScansConfig } from '../../../config';
import { newId } from '../../../db/ids';
import { withTenant } from '../../../db/tenant-scope';
import { defineJob } from '../../../jobs/contract';
import { enqueue } from '../../../jobs/outbox';
import type { JobDeps } from '../../job-deps';
import { sweepLeftoverGenerations } from '../dependencies/generations';
import { RUN_SCAN } from '../service';
import { findStaleScans, recoverStaleScan, type StaleScan, writeScanLogs } from '../store';

/**
 * Recovery of scans whose process died (docs/repositories-and-scans.md, "Recovery"): the stale
 * sweep, run by every worker process at an interval derived from the heartbeat and the stale
 * threshold, and the removal of checkouts a killed process left behind.
 */

export const CHECKOUT_PREFIX = 'driftwatch-scan-';

/** The stale-scan sweep as a system job (no tenant): at worker start and every minute. */
export const SWEEP_STALE_SCANS = defineJob({
  name: 'scans.sweep-stale',
  payload: Type.Object({}),
  expireInSeconds: 300,
  retryLimit: 1,
  schedule: '* * * * *',
});

/**
 * How often a worker process sweeps: half the heartbeat (or of the threshold, if smaller), at
 * least every 500 ms. A run's last heartbeat is at or before its death, so its scan is stale
 * at most `staleAfterSeconds` after the death and found within one interval more: recovery
 * takes at most the threshold plus half a heartbeat (plus the sweep's own statements).
 */
export function sweepIntervalMs(
  scans: Pick<ScansConfig, 'heartbeatSeconds' | 'staleAfterSeconds'>,
) {
  return Math.max(500, (Math.min(scans.heartbeatSeconds, scans.staleAfterSeconds) * 1000) / 2);
}

async function recoverOne(deps: JobDeps, scan: StaleScan): Promise<'requeued' | 'failed' | null> {
  const { maxAttempts } = deps.config.scans;
  const since = scan.heartbeat_at ? scan.heartbeat_at.toISOString() : 'never';
  const retry = scan.attempt < maxAttempts;
  return withTenant(deps.database, scan.tenant_id, async (db) => {
    const moved = await recoverStaleScan(
      db,
      scan,
      retry
        ? { retry: true }
        : {
            retry: false,
            error: `the worker stopped responding (last heartbeat ${since}) on attempt ${scan.attempt} of ${maxAttempts}`,
          },
    );
    if (!moved) return null;
    const scanRef = { tenantId: scan.tenant_id, scanId: scan.id };
    const message = retry
      ? `no heartbeat since ${since}: the worker presumably died; re-queued (attempt ${scan.attempt} of ${maxAttempts} used)`
      : `no heartbeat since ${since}: the worker presumably died; failed after ${scan.attempt} attempts`;
    await writeScanLogs(db, scanRef, [
      { level: retry ? 'warn' : 'error', step: 'recovery', message, at: new Date() },
    ]);
    if (!retry) return 'failed';
    await enqueue(db, RUN_SCAN, {
      tenantId: scan.tenant_id,
      data: { scanId: scan.id, repositoryId: scan.repository_id },
      correlationId: `recovery-${newId()}`,
    });
    return 'requeued';
  });
}

/**
 * Finds running scans whose heartbeat is older than `staleAfterSeconds` (their process died, or
 * hangs) and re-queues them with a new job, or fails them once they used `maxAttempts` runs. A
 * re-queued scan's old run, if it still lives, loses its fence (attempt changes on the next
 * claim) and stops. Safe in several processes at once: each move is fenced by the attempt.
 */
export async function sweepStaleScans(
  deps: JobDeps,
): Promise<{ requeued: number; failed: number }> {
  const stale = await findStaleScans(deps.database.system, deps.config.scans.staleAfterSeconds);
  let requeued = 0;
  let failed = 0;
  for (const scan of stale) {
    const outcome = await recoverOne(deps, scan);
    if (outcome === 'requeued') requeued++;
    if (outcome === 'failed') failed++;
  }
  return { requeued, failed };
}

export interface StaleScanSweeper {
  /** Stops the timer and waits for a sweep in progress (before the pools close). */
  stop: () => Promise<void>;
}

/**
 * Sweeps every `sweepIntervalMs` in this process (worker role); ticks never overlap. Each tick
 * also deletes leftover dependency generations (a run killed mid-store, or after its switch).
 */
export function startStaleScanSweeper(deps: JobDeps): StaleScanSweeper {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = sweepStaleScans(deps)
      .then(async (swept) => {
        if (swept.requeued + swept.failed > 0) deps.log('stale scans recovered', swept);
        const generations = await sweepLeftoverGenerations(deps.database);
        if (generations > 0) deps.log('leftover dependency generations deleted', { generations });
      })
      .catch((error) => deps.log('stale scan sweep failed', { err: error }))
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(tick, sweepIntervalMs(deps.config.scans));
        timer.unref();
      });
  };
  timer = setTimeout(tick, sweepIntervalMs(deps.config.scans));
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * Removes checkout directories a killed process left behind (a run removes its own in `finally`;
 * a SIGKILL skips that). Only directories older than `olderThanMs` go: no live run is that old.
 */
export async function removeAbandonedCheckouts(
  olderThanMs: number,
  root = tmpdir(),
): Promise<number> {
  let removed = 0;
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(CHECKOUT_PREFIX)) continue;
    const path = join(root, name);
    const info = await lstat(path).catch(() => null);
    if (!info?.isDirectory() || Date.now() - info.mtimeMs < olderThanMs) continue;
    await rm(path, { recursive: true, force: true }).catch(() => {});
    removed++;
  }
  return removed;
}
