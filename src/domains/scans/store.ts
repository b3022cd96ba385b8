import { type Kysely, type Selectable, sql } from 'kysely';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import type { ScanLogLevel, ScanLogTable, ScanState, ScanTable } from './tables';

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
export const FINISHED_STATES: readonly ScanState[] = ['completed', 'failed', 'cancelled'];

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

export async function appendScanLog(
  db: Kysely<DB>,
  entry: { tenantId: string; scanId: string; level: ScanLogLevel; step: string; message: string },
): Promise<void> {
  await db
    .insertInto('scan_logs')
    .values({
      tenant_id: entry.tenantId,
      id: newId(),
      scan_id: entry.scanId,
      level: entry.level,
      step: entry.step,
      // A log line is for people: keep it bounded whatever an error message carried.
      message: entry.message.slice(0, 4000),
    })
    .execute();
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

/**
 * Moves a scan from one of `from` to `to`, returning the updated row or undefined when the scan
 * was not in one of those states (someone else moved it first).
 */
export async function transitionScan(
  db: Kysely<DB>,
  scanId: string,
  from: readonly ScanState[],
  to: ScanState,
  fields: Partial<{
    error: string | null;
    started_at: Date | null;
    finished_at: Date | null;
    heartbeat_at: Date | null;
    commit_sha: string | null;
    counts_by_ecosystem: Record<string, number>;
    dependency_count: number;
    file_count: number;
  }> = {},
): Promise<ScanRow | undefined> {
  const { counts_by_ecosystem, ...rest } = fields;
  return db
    .updateTable('scans')
    .set({
      ...rest,
      ...(counts_by_ecosystem ? { counts_by_ecosystem: JSON.stringify(counts_by_ecosystem) } : {}),
      state: to,
    })
    .where('id', '=', scanId)
    .where('state', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

export async function touchHeartbeat(db: Kysely<DB>, scanId: string): Promise<ScanState | null> {
  const row = await db
    .updateTable('scans')
    .set({ heartbeat_at: sql<Date>`now()` })
    .where('id', '=', scanId)
    .where('state', '=', 'running')
    .returning('state')
    .executeTakeFirst();
  return row?.state ?? null;
}
