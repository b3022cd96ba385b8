import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { withTenant } from '../../db/tenant-scope';
import { extractPath } from '../../ecosystems/extract-tree';
import { enqueueJob } from '../../jobs/outbox';
import type { JobEnvelope } from '../../jobs/queue';
import { GitCheckoutError, redactUrl, shallowCheckout } from '../../sources/git';
import type { JobDeps } from '../job-deps';
import { cloneAccessFor } from '../repositories/clone-access';
import { RUN_SCAN_JOB, type RunScanJob, storeScanDependencies } from './service';
import { appendScanLog, findScan, type ScanRow } from './store';
import type { ScanLogLevel } from './tables';

/**
 * The scan worker (DESIGN.md §5, §7): claims a queued scan, checks out the default branch into a
 * temporary directory, extracts, stores, and always removes the checkout. Every write of a run
 * is fenced by (state = running, attempt = the run's attempt), so a run that was cancelled, or
 * re-queued by the stale sweep while it hung, stops at its next step and writes nothing more.
 */

/** Files with extraction errors get a log line each, up to this many. */
const MAX_FILE_ERROR_LINES = 50;

class ScanStopped extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

interface Run {
  tenantId: string;
  scanId: string;
  attempt: number;
  correlationId: string | null;
}

async function log(
  deps: JobDeps,
  run: Run,
  level: ScanLogLevel,
  step: string,
  message: string,
): Promise<void> {
  await withTenant(deps.database, run.tenantId, (db) =>
    appendScanLog(db, { tenantId: run.tenantId, scanId: run.scanId, level, step, message }),
  );
}

/** The run still owns its scan: running, same attempt. Locks the row when `lock` is set. */
async function owns(db: Kysely<DB>, run: Run, lock = false): Promise<boolean> {
  let query = db
    .selectFrom('scans')
    .select('id')
    .where('id', '=', run.scanId)
    .where('state', '=', 'running')
    .where('attempt', '=', run.attempt);
  if (lock) query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}

async function ensureOwned(deps: JobDeps, run: Run, before: string): Promise<void> {
  const owned = await withTenant(deps.database, run.tenantId, (db) => owns(db, run));
  if (!owned)
    throw new ScanStopped(`stopped before ${before}: the scan was cancelled or taken over`);
}

/** Claims a queued scan for this run (attempt + 1). Undefined when it is not queued any more. */
async function claim(
  deps: JobDeps,
  tenantId: string,
  scanId: string,
): Promise<ScanRow | undefined> {
  return withTenant(deps.database, tenantId, (db) =>
    db
      .updateTable('scans')
      .set({
        state: 'running',
        attempt: sql<number>`attempt + 1`,
        started_at: sql<Date>`now()`,
        heartbeat_at: sql<Date>`now()`,
        finished_at: null,
        error: null,
      })
      .where('id', '=', scanId)
      .where('state', '=', 'queued')
      .returningAll()
      .executeTakeFirst(),
  );
}

async function fail(deps: JobDeps, run: Run, step: string, message: string): Promise<void> {
  await withTenant(deps.database, run.tenantId, async (db) => {
    if (!(await owns(db, run, true))) return;
    await db
      .updateTable('scans')
      .set({ state: 'failed', error: message, finished_at: sql<Date>`now()`, heartbeat_at: null })
      .where('id', '=', run.scanId)
      .execute();
    await appendScanLog(db, {
      tenantId: run.tenantId,
      scanId: run.scanId,
      level: 'error',
      step,
      message: `scan failed: ${message}`,
    });
  });
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Runs one scan job. Never throws for a scan's own failure: that is the scan's `failed` state. */
export async function runScanJob(deps: JobDeps, envelope: JobEnvelope<RunScanJob>): Promise<void> {
  const tenantId = envelope.tenantId;
  const { scanId } = envelope.data ?? ({} as RunScanJob);
  if (!tenantId || typeof scanId !== 'string') {
    deps.log('scan job without tenant or scan id ignored', { data: envelope.data });
    return;
  }
  const claimed = await claim(deps, tenantId, scanId);
  if (!claimed) {
    // Cancelled before it started, deleted, or another delivery of this job already runs it:
    // at-least-once delivery must never give a second concurrent run.
    deps.log('scan job skipped: scan is not queued', { tenantId, scanId });
    return;
  }
  const run: Run = {
    tenantId,
    scanId,
    attempt: claimed.attempt,
    correlationId: envelope.correlationId,
  };
  const abort = new AbortController();
  const heartbeat = setInterval(() => {
    withTenant(deps.database, tenantId, (db) =>
      db
        .updateTable('scans')
        .set({ heartbeat_at: sql<Date>`now()` })
        .where('id', '=', scanId)
        .where('state', '=', 'running')
        .where('attempt', '=', run.attempt)
        .returning('id')
        .executeTakeFirst(),
    )
      .then((row) => {
        if (!row) abort.abort();
      })
      .catch(() => {});
  }, deps.config.scans.heartbeatSeconds * 1000);
  heartbeat.unref();

  let workDirectory: string | null = null;
  let step = 'start';
  try {
    const repository = await withTenant(deps.database, tenantId, (db) =>
      db
        .selectFrom('repositories')
        .selectAll()
        .where('id', '=', claimed.repository_id)
        .executeTakeFirst(),
    );
    if (!repository) throw new ScanStopped('the repository no longer exists');
    const branch = claimed.branch || repository.default_branch;
    await log(
      deps,
      run,
      'info',
      step,
      `attempt ${run.attempt} (${claimed.trigger}) of ${repository.full_name}, branch ${branch}`,
    );

    step = 'checkout';
    // Reads the connection in its own short transaction; provider calls hold none.
    const access = await cloneAccessFor(deps, tenantId, repository);
    workDirectory = await mkdtemp(join(tmpdir(), CHECKOUT_PREFIX));
    const checkoutDirectory = join(workDirectory, 'checkout');
    await log(deps, run, 'info', step, `shallow clone of ${redactUrl(repository.clone_url)}`);
    const checkout = await shallowCheckout({
      url: repository.clone_url,
      branch,
      directory: checkoutDirectory,
      workDirectory,
      credentials: access.credentials,
      deployKey: access.deployKey,
      caFile: deps.config.scans.gitCaFile,
      // The outbound guard runs again here: what was stored at import is checked anew.
      access: access.git,
      log: (message, details) => deps.log(message, { tenantId, scanId, ...details }),
      maxBytes: deps.config.scans.maxCheckoutBytes,
      timeoutMs: deps.config.scans.checkoutTimeoutSeconds * 1000,
      signal: abort.signal,
    });
    await log(
      deps,
      run,
      'info',
      step,
      `checked out ${checkout.commitSha} (${formatBytes(checkout.bytes)})`,
    );

    step = 'extract';
    await ensureOwned(deps, run, 'extraction');
    const extraction = await extractPath(checkoutDirectory);
    const withErrors = extraction.files.filter((file) => file.errors.length > 0);
    const dependencies = extraction.files.reduce((n, file) => n + file.dependencies.length, 0);
    await log(
      deps,
      run,
      'info',
      step,
      `${extraction.files.length} dependency files, ${dependencies} dependencies` +
        (extraction.files.length > 0
          ? `: ${extraction.files.map((f) => `${f.path} (${f.format}, ${f.dependencies.length})`).join(', ')}`
          : ''),
    );
    for (const file of withErrors.slice(0, MAX_FILE_ERROR_LINES)) {
      const first = file.errors[0];
      await log(
        deps,
        run,
        'warn',
        step,
        `${file.path}: ${file.errors.length} entries skipped; first${first?.line ? ` (line ${first.line})` : ''}: ${first?.message}`,
      );
    }
    if (withErrors.length > MAX_FILE_ERROR_LINES) {
      await log(
        deps,
        run,
        'warn',
        step,
        `${withErrors.length - MAX_FILE_ERROR_LINES} more files had skipped entries`,
      );
    }

    step = 'store';
    const stored = await withTenant(deps.database, tenantId, async (db) => {
      // Locked: a cancel arriving now waits, then finds the scan completed (409).
      if (!(await owns(db, run, true))) return null;
      const result = await storeScanDependencies(db, {
        tenantId,
        repositoryId: repository.id,
        scanId,
        files: extraction.files,
        correlationId: run.correlationId,
      });
      await db
        .updateTable('scans')
        .set({
          state: 'completed',
          finished_at: sql<Date>`now()`,
          heartbeat_at: null,
          commit_sha: checkout.commitSha,
          counts_by_ecosystem: JSON.stringify(result.countsByEcosystem),
          dependency_count: result.dependencyCount,
          file_count: result.fileCount,
        })
        .where('id', '=', scanId)
        .execute();
      await db
        .updateTable('repositories')
        .set({ last_scan_id: scanId, last_scanned_at: sql<Date>`now()` })
        .where('id', '=', repository.id)
        .execute();
      await appendScanLog(db, {
        tenantId,
        scanId,
        level: 'info',
        step,
        message: `stored ${result.dependencyCount} dependencies from ${result.fileCount} files; scan completed`,
      });
      return result;
    });
    if (!stored)
      throw new ScanStopped('stopped before storing: the scan was cancelled or taken over');
  } catch (error) {
    if (
      error instanceof ScanStopped ||
      (error instanceof GitCheckoutError && error.failure === 'cancelled')
    ) {
      const reason =
        error instanceof ScanStopped
          ? error.reason
          : 'checkout stopped: the scan was cancelled or taken over';
      await log(deps, run, 'warn', step, reason).catch(() => {});
    } else {
      const message =
        error instanceof GitCheckoutError
          ? error.message
          : error instanceof Error
            ? `${step} failed: ${error.message}`
            : `${step} failed`;
      if (!(error instanceof GitCheckoutError)) {
        deps.log('scan failed unexpectedly', { tenantId, scanId, err: error });
      }
      await fail(deps, run, step, message).catch((failure) =>
        deps.log('could not record a failed scan', { tenantId, scanId, err: failure }),
      );
    }
  } finally {
    clearInterval(heartbeat);
    if (workDirectory) {
      await rm(workDirectory, { recursive: true, force: true }).catch(() => {});
      await log(deps, run, 'info', 'cleanup', 'checkout removed').catch(() => {});
    }
  }
}

const CHECKOUT_PREFIX = 'driftwatch-scan-';

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

/** The stale-scan sweep: a system job (no tenant), on a schedule and at worker start. */
export const SWEEP_STALE_SCANS_JOB = 'scans.sweep-stale';

/**
 * Finds running scans whose heartbeat is older than `staleAfterSeconds` (their process died, or
 * hangs) and re-queues them with a new job, or fails them once they used `maxAttempts` runs. A
 * re-queued scan's old run, if it still lives, loses its fence (attempt changes on the next
 * claim) and stops. Runs on the system connection: it is the one cross-tenant scan query.
 */
export async function sweepStaleScans(
  deps: JobDeps,
): Promise<{ requeued: number; failed: number }> {
  const { staleAfterSeconds, maxAttempts } = deps.config.scans;
  const stale = await deps.database.system
    .selectFrom('scans')
    .select(['tenant_id', 'id', 'attempt', 'heartbeat_at', 'repository_id'])
    .where('state', '=', 'running')
    .where(
      sql<boolean>`coalesce(heartbeat_at, started_at, queued_at) < now() - make_interval(secs => ${staleAfterSeconds})`,
    )
    .limit(500)
    .execute();
  let requeued = 0;
  let failed = 0;
  for (const scan of stale) {
    const since = scan.heartbeat_at ? scan.heartbeat_at.toISOString() : 'never';
    await withTenant(deps.database, scan.tenant_id, async (db) => {
      const retry = scan.attempt < maxAttempts;
      const moved = await db
        .updateTable('scans')
        .set(
          retry
            ? { state: 'queued', heartbeat_at: null, started_at: null }
            : {
                state: 'failed',
                heartbeat_at: null,
                finished_at: sql<Date>`now()`,
                error: `the worker stopped responding (last heartbeat ${since}) on attempt ${scan.attempt} of ${maxAttempts}`,
              },
        )
        .where('id', '=', scan.id)
        .where('state', '=', 'running')
        .where('attempt', '=', scan.attempt)
        .returning('id')
        .executeTakeFirst();
      if (!moved) return;
      await appendScanLog(db, {
        tenantId: scan.tenant_id,
        scanId: scan.id,
        level: retry ? 'warn' : 'error',
        step: 'recovery',
        message: retry
          ? `no heartbeat since ${since}: the worker presumably died; re-queued (attempt ${scan.attempt} of ${maxAttempts} used)`
          : `no heartbeat since ${since}: the worker presumably died; failed after ${scan.attempt} attempts`,
      });
      if (retry) {
        await enqueueJob<RunScanJob>(db, {
          tenantId: scan.tenant_id,
          name: RUN_SCAN_JOB,
          data: { scanId: scan.id, repositoryId: scan.repository_id },
          correlationId: `recovery-${newId()}`,
        });
        requeued++;
      } else {
        failed++;
      }
    });
  }
  return { requeued, failed };
}

export { findScan };
