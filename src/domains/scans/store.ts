import { type Kysely, type Selectable, sql } from 'kysely';
import { storableText } from '../../core/storable-text';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { emitEvent } from '../events';
import { isFinal, SCAN_TRANSITIONS, type ScanEvent } from './lifecycle';
import type {
  ScanFailureCause,
  ScanLogLevel,
  ScanLogTable,
  ScanState,
  ScanTable,
  ScanTrigger,
} from './tables';

/**
 * The scan store: the ONLY code that writes the `scans` and `scan_logs` tables (a test walks
 * src/ for writes elsewhere). Every state change goes through `move`, which takes its allowed
 * from-states from the lifecycle (./lifecycle.ts); a run's writes are fenced by its attempt, so
 * a run that was cancelled or re-queued while it hung writes nothing more.
 */

export type ScanRow = Selectable<ScanTable>;
export type ScanLogRow = Selectable<ScanLogTable>;

export const SCAN_STATES: readonly ScanState[] = [
  'queued',
  'running',
  'completed',
  'failed',
  'cancelled',
];
export const ACTIVE_STATES: readonly ScanState[] = ['queued', 'running'];

/** One run of a scan: writes of the run only land while the scan is running this attempt. */
export interface ScanRun {
  tenantId: string;
  scanId: string;
  attempt: number;
}

export async function findScan(db: Kysely<DB>, scanId: string): Promise<ScanRow | undefined> {
  return db.selectFrom('scans').selectAll().where('id', '=', scanId).executeTakeFirst();
}

/** The queued or running scan of a repository (at most one: the `scans_one_active` index). */
export async function findActiveScan(
  db: Kysely<DB>,
  repositoryId: string,
): Promise<ScanRow | undefined> {
  return db
    .selectFrom('scans')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .where('state', 'in', ACTIVE_STATES)
    .executeTakeFirst();
}

export async function listScans(
  db: Kysely<DB>,
  filter: { repositoryId?: string; state?: ScanState; take: number },
): Promise<ScanRow[]> {
  let query = db.selectFrom('scans').selectAll();
  if (filter.repositoryId) query = query.where('repository_id', '=', filter.repositoryId);
  if (filter.state) query = query.where('state', '=', filter.state);
  return query.orderBy('queued_at', 'desc').orderBy('id', 'desc').limit(filter.take).execute();
}

/**
 * A new queued scan; undefined when the repository already has a queued or running scan (the
 * partial unique index `scans_one_active` settles a race: the loser inserts nothing). Runs in the
 * tenant scope: the database fills tenant_id from it.
 */
export async function insertQueuedScan(
  db: Kysely<DB>,
  scan: { repositoryId: string; trigger: ScanTrigger; branch: string | null },
): Promise<ScanRow | undefined> {
  return db
    .insertInto('scans')
    .values({
      id: newId(),
      repository_id: scan.repositoryId,
      state: 'queued',
      trigger: scan.trigger,
      branch: scan.branch,
      counts_by_ecosystem: JSON.stringify({}),
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

type MoveFields = Partial<{
  error: string | null;
  failure_cause: ScanFailureCause;
  commit_sha: string | null;
  counts_by_ecosystem: string;
  dependency_count: number;
  file_count: number;
}>;

/**
 * Applies a lifecycle event to one scan: only from the event's allowed states, and only for
 * `attempt` when given (the run's fence). Undefined when the scan was not in such a state.
 */
async function move(
  db: Kysely<DB>,
  scanId: string,
  event: ScanEvent,
  options: { attempt?: number; fields?: MoveFields } = {},
): Promise<ScanRow | undefined> {
  const { from, to } = SCAN_TRANSITIONS[event];
  const timing =
    to === 'running'
      ? {
          attempt: sql<number>`attempt + 1`,
          started_at: sql<Date>`now()`,
          heartbeat_at: sql<Date>`now()`,
          finished_at: null,
          error: null,
        }
      : to === 'queued'
        ? { heartbeat_at: null, started_at: null }
        : // clock_timestamp: now() is the transaction's start (a claim in the same transaction).
          { heartbeat_at: null, finished_at: sql<Date>`clock_timestamp()` };
  let query = db
    .updateTable('scans')
    .set({ ...timing, ...options.fields, state: to })
    .where('id', '=', scanId)
    .where('state', 'in', from);
  if (options.attempt !== undefined) query = query.where('attempt', '=', options.attempt);
  const moved = await query.returningAll().executeTakeFirst();
  if (moved && isFinal(to)) await recordFinished(db, moved);
  // Every way a scan fails passes here: the event commits with the move (docs/events.md).
  if (moved && to === 'failed') {
    await emitEvent(db, 'scan.failed', {
      tenantId: moved.tenant_id,
      data: { scanId: moved.id, repositoryId: moved.repository_id, error: moved.error },
    });
  }
  return moved;
}

/**
 * The repository's last finished scan (any final state: the dashboard counts repositories by its
 * state) and, for a completed one, its last scan: the last successful one, which the repository
 * detail and the SBOM export read.
 */
async function recordFinished(db: Kysely<DB>, scan: ScanRow): Promise<void> {
  const completed =
    scan.state === 'completed'
      ? { last_scan_id: scan.id, last_scanned_at: sql<Date>`clock_timestamp()` }
      : {};
  await db
    .updateTable('repositories')
    .set({ last_finished_scan_id: scan.id, ...completed })
    .where('id', '=', scan.repository_id)
    .execute();
}

/** queued → running with attempt + 1. Undefined when the scan is not queued any more. */
export async function claimScan(db: Kysely<DB>, scanId: string): Promise<ScanRow | undefined> {
  return move(db, scanId, 'claim');
}

/** The run still owns its scan (running, same attempt); `lock` locks the row until commit. */
export async function ownsRun(db: Kysely<DB>, run: ScanRun, lock = false): Promise<boolean> {
  let query = db
    .selectFrom('scans')
    .select('id')
    .where('id', '=', run.scanId)
    .where('state', '=', 'running')
    .where('attempt', '=', run.attempt);
  if (lock) query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}

/** The run's heartbeat; false when the run no longer owns the scan (it should stop). */
export async function beatHeartbeat(db: Kysely<DB>, run: ScanRun): Promise<boolean> {
  const row = await db
    .updateTable('scans')
    .set({ heartbeat_at: sql<Date>`now()` })
    .where('id', '=', run.scanId)
    .where('state', '=', 'running')
    .where('attempt', '=', run.attempt)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export interface ScanResult {
  commitSha: string | null;
  countsByEcosystem: Record<string, number>;
  dependencyCount: number;
  fileCount: number;
}

/** running (this attempt) → completed with its result (and the repository's last scan). */
export async function completeScan(
  db: Kysely<DB>,
  run: ScanRun,
  result: ScanResult,
): Promise<ScanRow | undefined> {
  return move(db, run.scanId, 'complete', {
    attempt: run.attempt,
    fields: {
      commit_sha: result.commitSha,
      counts_by_ecosystem: JSON.stringify(result.countsByEcosystem),
      dependency_count: result.dependencyCount,
      file_count: result.fileCount,
    },
  });
}

/**
 * → failed with the reason; fenced by `attempt` when given (a run), else any active scan.
 * `cause`: whose failure it is (the status page counts only the service's).
 */
export async function failScan(
  db: Kysely<DB>,
  scanId: string,
  error: string,
  attempt?: number,
  cause: ScanFailureCause = 'service',
): Promise<ScanRow | undefined> {
  return move(db, scanId, 'fail', {
    attempt,
    fields: { error: error.slice(0, 2000), failure_cause: cause },
  });
}

/** queued | running → cancelled (a running run stops at its next step). */
export async function cancelScan(db: Kysely<DB>, scanId: string): Promise<ScanRow | undefined> {
  return move(db, scanId, 'cancel');
}

export interface StaleScan {
  tenant_id: string;
  id: string;
  attempt: number;
  heartbeat_at: Date | null;
  repository_id: string;
}

/**
 * Running scans whose heartbeat is older than `staleAfterSeconds`, across tenants (the system
 * connection: the one cross-tenant scan query). Read only; `recoverStaleScan` moves each one.
 */
export async function findStaleScans(
  system: Kysely<DB>,
  staleAfterSeconds: number,
): Promise<StaleScan[]> {
  return system
    .selectFrom('scans')
    .select(['tenant_id', 'id', 'attempt', 'heartbeat_at', 'repository_id'])
    .where('state', '=', 'running')
    .where(
      sql<boolean>`coalesce(heartbeat_at, started_at, queued_at) < now() - make_interval(secs => ${staleAfterSeconds})`,
    )
    .limit(500)
    .execute();
}

/** A stale run's scan: re-queued (`retry`) or failed with `error`, only if still that run. */
export async function recoverStaleScan(
  db: Kysely<DB>,
  scan: StaleScan,
  outcome: { retry: true } | { retry: false; error: string },
): Promise<boolean> {
  const moved = outcome.retry
    ? await move(db, scan.id, 'requeue', { attempt: scan.attempt })
    : await move(db, scan.id, 'fail', {
        attempt: scan.attempt,
        fields: { error: outcome.error, failure_cause: 'service' },
      });
  return moved !== undefined;
}

export interface ScanLogLine {
  level: ScanLogLevel;
  step: string;
  message: string;
  /** When the line was noted (lines are written in batches; this keeps their order and time). */
  at: Date;
}

/** Writes log lines of one scan in one statement (in its tenant's scope, which fills tenant_id). */
export async function writeScanLogs(
  db: Kysely<DB>,
  scan: { scanId: string },
  lines: readonly ScanLogLine[],
): Promise<void> {
  if (lines.length === 0) return;
  await db
    .insertInto('scan_logs')
    .values(
      lines.map((line) => ({
        id: newId(),
        scan_id: scan.scanId,
        logged_at: line.at,
        level: line.level,
        step: line.step,
        // A log line is for people: bounded and storable whatever an error message carried.
        message: storableText(line.message.slice(0, 4000)),
      })),
    )
    .execute();
}

/** One log line written at once (requests: cancel). */
export async function appendScanLog(
  db: Kysely<DB>,
  entry: { scanId: string; level: ScanLogLevel; step: string; message: string },
): Promise<void> {
  await writeScanLogs(db, entry, [{ ...entry, at: new Date() }]);
}

/** The newest `take` lines (optionally since a time), returned oldest first for reading. */
export async function listScanLogs(
  db: Kysely<DB>,
  filter: { scanId: string; since?: Date; take: number },
): Promise<ScanLogRow[]> {
  let query = db.selectFrom('scan_logs').selectAll().where('scan_id', '=', filter.scanId);
  if (filter.since) query = query.where('logged_at', '>=', filter.since);
  return query.orderBy('logged_at', 'desc').orderBy('id', 'desc').limit(filter.take).execute();
}
