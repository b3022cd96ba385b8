import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { isPlan, planHas } from '../../../core/plans';
import type { DB } from '../../../db/schema';
import { withTenant } from '../../../db/tenant-scope';
import type { TreeExtraction } from '../../../ecosystems/extract-tree';
import type { ReachabilityFact } from '../../../intel/reachability/analyse';
import type { JobEnvelope } from '../../../jobs/queue';
import {
  GitCheckoutError,
  HTTPS_UNAVAILABLE,
  redactUrl,
  shallowCheckout,
} from '../../../sources/git';
import type { JobDeps } from '../../job-deps';
import {
  type CodeInventory,
  type QuantumInventory,
  withLibraryFindings,
} from '../../quantum/inventory';
import { collectCodeInventoryInThread } from '../../quantum/inventory-thread';
import { saveInventory } from '../../quantum/store';
import { cloneAccessFor } from '../../source-control/clone-access';
import { DEFAULT_EXTRACTION_LIMITS, extractInWorker } from '../dependencies/extraction';
import {
  countDependencies,
  dropReplacedGeneration,
  stageGeneration,
} from '../dependencies/generations';
import { reportScanEnd } from '../lifecycle';
import { type RunScanJob, switchToGeneration } from '../service';
import {
  beatHeartbeat,
  claimScan,
  completeScan,
  failScan,
  findScan,
  ownsRun,
  type ScanRow,
  type ScanRun,
  writeScanLogs,
} from '../store';
import type { ScanFailureCause, ScanLogLevel } from '../tables';
import { computeReachability, stageReachability } from './reachability';
import { CHECKOUT_PREFIX } from './recovery';
import { ScanLogBuffer } from './scan-log';

export { removeAbandonedCheckouts, sweepStaleScans } from './recovery';
export { findScan };

/**
 * The scan worker (docs/repositories-and-scans.md): claims a queued scan, checks out the branch
 * into a temporary directory, extracts in a worker thread, stores, and always removes the
 * checkout. Every write of a run is fenced by (state = running, attempt = the run's attempt),
 * so a run that was cancelled, or re-queued by the stale sweep while it hung, stops at its next
 * step and writes nothing more. Log lines are buffered and written in batches (./scan-log.ts).
 */

/** Files with extraction errors get a log line each, up to this many. */
const MAX_FILE_ERROR_LINES = 50;

class ScanStopped extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

interface Run extends ScanRun {
  correlationId: string | null;
  logs: ScanLogBuffer;
  /** Aborted when the heartbeat finds the run no longer owns its scan. */
  abort: AbortController;
  step: string;
}

type Repository = Awaited<ReturnType<typeof loadRepository>>;
type Checkout = { directory: string; commitSha: string };

/** Writes the buffered log lines in one statement (put back if the write fails). */
async function flushLogs(deps: JobDeps, run: Run): Promise<void> {
  const lines = run.logs.take();
  if (lines.length === 0) return;
  try {
    await withTenant(deps.database, run.tenantId, (db) => writeScanLogs(db, run, lines));
  } catch (error) {
    run.logs.restore(lines);
    throw error;
  }
}

async function note(deps: JobDeps, run: Run, level: ScanLogLevel, message: string) {
  if (run.logs.add(level, run.step, message)) await flushLogs(deps, run);
}

/** The heartbeat, with the lines noted since the last one, in one transaction. */
function startHeartbeat(deps: JobDeps, run: Run): NodeJS.Timeout {
  const timer = setInterval(() => {
    const lines = run.logs.take();
    withTenant(deps.database, run.tenantId, async (db) => {
      const owned = await beatHeartbeat(db, run);
      await writeScanLogs(db, run, lines);
      return owned;
    })
      .then((owned) => {
        if (!owned) run.abort.abort();
      })
      .catch(() => run.logs.restore(lines));
  }, deps.config.scans.heartbeatSeconds * 1000);
  timer.unref();
  return timer;
}

async function ensureOwned(deps: JobDeps, run: Run, before: string): Promise<void> {
  const owned = await withTenant(deps.database, run.tenantId, (db) => ownsRun(db, run));
  if (!owned)
    throw new ScanStopped(`stopped before ${before}: the scan was cancelled or taken over`);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function loadRepository(deps: JobDeps, run: Run, claimed: ScanRow) {
  const repository = await withTenant(deps.database, run.tenantId, (db) =>
    db
      .selectFrom('repositories')
      .selectAll()
      .where('id', '=', claimed.repository_id)
      .executeTakeFirst(),
  );
  if (!repository) throw new ScanStopped('the repository no longer exists');
  return repository;
}

/** Shallow clone of the branch into `workDirectory`; provider calls hold no transaction. */
async function checkOut(
  deps: JobDeps,
  run: Run,
  repository: Repository,
  branch: string,
  workDirectory: string,
): Promise<Checkout> {
  run.step = 'checkout';
  const access = await cloneAccessFor(deps, run.tenantId, repository);
  const directory = join(workDirectory, 'checkout');
  await note(deps, run, 'info', `shallow clone of ${redactUrl(repository.clone_url)}`);
  const checkout = await shallowCheckout({
    url: repository.clone_url,
    branch,
    directory,
    workDirectory,
    credentials: access.credentials,
    deployKey: access.deployKey,
    caFile: deps.config.scans.gitCaFile,
    // The outbound guard runs again here: what was stored at import is checked anew.
    access: access.git,
    log: (message, details) =>
      deps.log(message, { tenantId: run.tenantId, scanId: run.scanId, ...details }),
    maxBytes: deps.config.scans.maxCheckoutBytes,
    timeoutMs: deps.config.scans.checkoutTimeoutSeconds * 1000,
    signal: run.abort.signal,
  });
  await note(
    deps,
    run,
    'info',
    `checked out ${checkout.commitSha} (${formatBytes(checkout.bytes)})`,
  );
  return { directory, commitSha: checkout.commitSha };
}

/** Extraction in a worker thread (unstorable entries dropped there); a line per file in error. */
async function extract(deps: JobDeps, run: Run, checkout: Checkout): Promise<TreeExtraction> {
  run.step = 'extract';
  await ensureOwned(deps, run, 'extraction');
  const limits = {
    ...DEFAULT_EXTRACTION_LIMITS,
    maxHeapMb: deps.config.scans.extractionHeapMb,
    maxDependencies: deps.config.scans.maxDependencies,
  };
  const { files } = await extractInWorker(checkout.directory, limits, run.abort.signal);
  const dependencies = files.reduce((n, file) => n + file.dependencies.length, 0);
  await note(
    deps,
    run,
    'info',
    `${files.length} dependency files, ${dependencies} dependencies` +
      (files.length > 0
        ? `: ${files.map((f) => `${f.path} (${f.format}, ${f.dependencies.length})`).join(', ')}`
        : ''),
  );
  const withErrors = files.filter((file) => file.errors.length > 0);
  for (const file of withErrors.slice(0, MAX_FILE_ERROR_LINES)) {
    const first = file.errors[0];
    await note(
      deps,
      run,
      'warn',
      `${file.path}: ${file.errors.length} ${file.dependencies.length === 0 ? 'errors, no entries read' : 'entries skipped'}; first${first?.line ? ` (line ${first.line})` : ''}: ${first?.message}`,
    );
  }
  if (withErrors.length > MAX_FILE_ERROR_LINES) {
    const more = withErrors.length - MAX_FILE_ERROR_LINES;
    await note(deps, run, 'warn', `${more} more files had errors`);
  }
  return { files };
}

/**
 * Import-level reachability on the checked-out tree (docs/reachability.md). A failure costs only
 * the facts (exposures stay `unknown`), never the scan.
 */
async function analyseImports(
  deps: JobDeps,
  run: Run,
  checkout: Checkout,
  extraction: TreeExtraction,
): Promise<ReachabilityFact[] | null> {
  run.step = 'reachability';
  await ensureOwned(deps, run, 'reachability');
  try {
    const facts = await computeReachability(checkout.directory, extraction.files);
    const count = (state: ReachabilityFact['reachability']) =>
      facts.filter((f) => f.reachability === state).length;
    await note(
      deps,
      run,
      'info',
      `reachability: ${count('imported')} imported, ${count('used_by_tooling')} used by tooling, ${count('not_imported')} not imported, ${count('unknown')} unknown`,
    );
    return facts;
  } catch (error) {
    await note(deps, run, 'warn', `reachability not computed: ${(error as Error).message}`);
    return null;
  }
}

/**
 * The cryptography inventory of the checkout (docs/quantum.md), for tenants whose plan has the
 * quantum area. The checkout's part (source, keys, certificates) is read in its own thread,
 * started before extraction so that the two overlap; the dependency findings are added once
 * extraction is done (`finishInventory`). Like reachability, a failure costs only the inventory
 * (the previous one stays), never the scan. Never rejects.
 */
async function startInventory(
  deps: JobDeps,
  run: Run,
  checkout: Checkout,
  signal: AbortSignal,
): Promise<CodeInventory | Error | null> {
  const tenant = await deps.database.system
    .selectFrom('tenants')
    .select('plan')
    .where('id', '=', run.tenantId)
    .executeTakeFirst();
  if (!tenant || !isPlan(tenant.plan) || !planHas(tenant.plan, 'quantum')) return null;
  return collectCodeInventoryInThread(checkout.directory, new Date(), {
    signal,
    timeoutMs: DEFAULT_EXTRACTION_LIMITS.scanTimeoutMs,
    maxHeapMb: deps.config.scans.extractionHeapMb,
  }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
}

async function finishInventory(
  deps: JobDeps,
  run: Run,
  extraction: TreeExtraction,
  pending: Promise<CodeInventory | Error | null>,
): Promise<QuantumInventory | null> {
  run.step = 'quantum';
  const code = await pending;
  if (code === null) return null;
  await ensureOwned(deps, run, 'quantum');
  if (code instanceof Error) {
    await note(deps, run, 'warn', `quantum inventory not taken: ${code.message}`);
    return null;
  }
  const dependencies = extraction.files.flatMap((file) =>
    file.dependencies.map((d) => ({ ecosystem: file.ecosystem, name: d.name, purl: d.purl })),
  );
  const inventory = withLibraryFindings(code, dependencies);
  await note(
    deps,
    run,
    'info',
    `quantum: ${inventory.findings.length} findings, ${inventory.certificates.length} certificates in ${inventory.filesRead} files`,
  );
  return inventory;
}

/**
 * Stores the dependencies as a new generation in short chunked transactions, then switches to
 * it, completes the scan and writes the remaining log lines in one short transaction, then
 * deletes the replaced generation in chunks (./generations.ts). Returns the completed scan.
 */
async function store(
  deps: JobDeps,
  run: Run,
  repository: Repository,
  checkout: Checkout,
  extraction: TreeExtraction,
  reachability: readonly ReachabilityFact[] | null,
  inventory: QuantumInventory | null,
): Promise<ScanRow | undefined> {
  run.step = 'store';
  const target = { tenantId: run.tenantId, repositoryId: repository.id, scanId: run.scanId };
  // Locked in each chunk: a cancel or a re-queue waits for the chunk, then the next one stops.
  const fence = (db: Kysely<DB>) => ownsRun(db, run, true);
  const staged =
    (await stageGeneration(deps.database, target, extraction.files, fence)) &&
    (!reachability || (await stageReachability(deps.database, target, reachability, fence)));
  if (!staged) throw new ScanStopped('stopped while storing: the scan was cancelled or taken over');
  const result = countDependencies(extraction.files);
  const switched = await withTenant(deps.database, run.tenantId, async (db) => {
    // Locked: a cancel arriving now waits, then finds the scan completed (409).
    if (!(await fence(db))) return undefined;
    const previous = await switchToGeneration(db, { ...target, correlationId: run.correlationId });
    if (inventory) {
      await saveInventory(db, { ...target, correlationId: run.correlationId }, inventory);
    }
    const completed = await completeScan(db, run, { commitSha: checkout.commitSha, ...result });
    run.logs.add(
      'info',
      run.step,
      `stored ${result.dependencyCount} dependencies from ${result.fileCount} files; scan completed`,
    );
    await writeScanLogs(db, run, run.logs.take());
    return { previous, completed };
  });
  if (!switched)
    throw new ScanStopped('stopped before storing: the scan was cancelled or taken over');
  if (switched.previous) {
    await dropReplacedGeneration(deps.database, run.tenantId, switched.previous).catch((error) =>
      deps.log('replaced dependencies not yet deleted (the recovery sweep will)', {
        tenantId: run.tenantId,
        scanId: run.scanId,
        err: error,
      }),
    );
  }
  return switched.completed;
}

/**
 * Whose failure it is: a checkout refused or failed by the tenant's own repository (gone, an
 * address not allowed, credentials refused, no such branch, too large, a remote that does not
 * answer) is the input's; this server unable to clone over https, and every failure past the
 * checkout, the service's (the status page counts only those, docs/status.md#components).
 */
function failureCause(error: unknown): ScanFailureCause {
  if (!(error instanceof GitCheckoutError)) return 'service';
  return error.message === HTTPS_UNAVAILABLE ? 'service' : 'input';
}

/**
 * A run's error: a stop (cancelled, taken over) is logged; anything else fails the scan. Returns
 * the scan as it ended, when it ended in this run's attempt (failed here, or cancelled meanwhile).
 */
async function settleFailure(
  deps: JobDeps,
  run: Run,
  error: unknown,
): Promise<ScanRow | undefined> {
  const stopped =
    error instanceof ScanStopped ||
    (error instanceof GitCheckoutError && error.failure === 'cancelled') ||
    run.abort.signal.aborted;
  if (stopped) {
    const reason =
      error instanceof ScanStopped ? error.reason : 'stopped: the scan was cancelled or taken over';
    run.logs.add('warn', run.step, reason);
    return endedMeanwhile(deps, run);
  }
  const message =
    error instanceof GitCheckoutError
      ? error.message
      : error instanceof Error
        ? `${run.step} failed: ${error.message}`
        : `${run.step} failed`;
  if (!(error instanceof GitCheckoutError)) {
    deps.log('scan failed unexpectedly', {
      tenantId: run.tenantId,
      scanId: run.scanId,
      err: error,
    });
  }
  run.logs.add('error', run.step, `scan failed: ${message}`);
  const lines = run.logs.take();
  return withTenant(deps.database, run.tenantId, async (db) => {
    // Only this run's attempt: a scan cancelled or re-queued meanwhile is not failed by it.
    const failed = await failScan(db, run.scanId, message, run.attempt, failureCause(error));
    await writeScanLogs(db, run, lines);
    return failed;
  }).catch((failure) => {
    deps.log('could not record a failed scan', {
      tenantId: run.tenantId,
      scanId: run.scanId,
      err: failure,
    });
    return undefined;
  });
}

/**
 * The scan of a stopped run, when something else ended it in this run's attempt (a cancel, the
 * stale sweep's last failure): the one read of a stopped run, so that its end is reported too. A
 * scan re-queued and run again is the new attempt's to report.
 */
async function endedMeanwhile(deps: JobDeps, run: Run): Promise<ScanRow | undefined> {
  const scan = await withTenant(deps.database, run.tenantId, (db) =>
    findScan(db, run.scanId),
  ).catch(() => undefined);
  return scan?.attempt === run.attempt ? scan : undefined;
}

/** Claims the job's scan; null (and a log line) when the job is malformed or not queued. */
async function claimRun(
  deps: JobDeps,
  envelope: JobEnvelope<RunScanJob>,
): Promise<{ run: Run; claimed: ScanRow } | null> {
  const tenantId = envelope.tenantId;
  const scanId = envelope.data?.scanId;
  if (!tenantId || typeof scanId !== 'string') {
    deps.log('scan job without tenant or scan id ignored', { data: envelope.data });
    return null;
  }
  const claimed = await withTenant(deps.database, tenantId, (db) => claimScan(db, scanId));
  if (!claimed) {
    // Cancelled before it started, deleted, or another delivery of this job already runs it:
    // at-least-once delivery must never give a second concurrent run.
    deps.log('scan job skipped: scan is not queued', { tenantId, scanId });
    return null;
  }
  const run: Run = {
    tenantId,
    scanId,
    attempt: claimed.attempt,
    correlationId: envelope.correlationId,
    logs: new ScanLogBuffer(),
    abort: new AbortController(),
    step: 'start',
  };
  return { run, claimed };
}

/** Removes the checkout and writes what is left of the log. */
async function cleanUp(deps: JobDeps, run: Run, workDirectory: string | null): Promise<void> {
  if (workDirectory) {
    await rm(workDirectory, { recursive: true, force: true }).catch(() => {});
    run.logs.add('info', 'cleanup', 'checkout removed');
  }
  await flushLogs(deps, run).catch(() => {});
}

/** Runs one scan job. Never throws for a scan's own failure: that is the scan's `failed` state. */
export async function runScanJob(deps: JobDeps, envelope: JobEnvelope<RunScanJob>): Promise<void> {
  const started = await claimRun(deps, envelope);
  if (!started) return;
  const { run, claimed } = started;
  const heartbeat = startHeartbeat(deps, run);
  let workDirectory: string | null = null;
  // The scan as this run's last move left it: reported once the run is over.
  let ended: ScanRow | undefined;
  // Ends the inventory's thread if the scan ends first (failure, cancellation, lost claim).
  const inventoryStop = new AbortController();
  try {
    const repository = await loadRepository(deps, run, claimed);
    const branch = claimed.branch || repository.default_branch;
    await note(
      deps,
      run,
      'info',
      `attempt ${run.attempt} (${claimed.trigger}) of ${repository.full_name}, branch ${branch}`,
    );
    workDirectory = await mkdtemp(join(tmpdir(), CHECKOUT_PREFIX));
    const checkout = await checkOut(deps, run, repository, branch, workDirectory);
    const pendingInventory = startInventory(deps, run, checkout, inventoryStop.signal);
    const extraction = await extract(deps, run, checkout);
    const reachability = await analyseImports(deps, run, checkout, extraction);
    const inventory = await finishInventory(deps, run, extraction, pendingInventory);
    ended = await store(deps, run, repository, checkout, extraction, reachability, inventory);
  } catch (error) {
    ended = await settleFailure(deps, run, error);
  } finally {
    inventoryStop.abort();
    clearInterval(heartbeat);
    await cleanUp(deps, run, workDirectory);
  }
  reportScanEnd(deps.observe, ended);
}
