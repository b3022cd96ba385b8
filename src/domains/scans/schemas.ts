import { type TSchema, Type } from 'typebox';
import { iso } from '../../core/iso-time';
import { DateTime, NullableDateTime, Uuid } from '../../http/schemas';
import type { ScanLogRow, ScanRow } from './store';

const NullableText = Type.Union([Type.String(), Type.Null()]);

export const Scan = Type.Object({
  scanId: Uuid,
  repositoryId: Uuid,
  state: Type.String({
    description: 'queued, running, completed, failed or cancelled (new states may be added)',
  }),
  trigger: Type.String({ description: 'manual, push, sbom or retry' }),
  branch: NullableText,
  commitSha: NullableText,
  queuedAtUtc: DateTime,
  startedAtUtc: NullableDateTime,
  finishedAtUtc: NullableDateTime,
  heartbeatAtUtc: NullableDateTime,
  durationMs: Type.Union([Type.Integer(), Type.Null()], {
    description: 'finished − started, null until finished',
  }),
  attempt: Type.Integer({ description: 'runs so far (a recovered scan runs again)' }),
  error: NullableText,
  countsByEcosystem: Type.Record(Type.String(), Type.Integer(), {
    description: 'dependencies found per ecosystem ({"npm": 120, "PyPI": 14})',
  }),
  dependencyCount: Type.Integer(),
  fileCount: Type.Integer(),
});

export const ScanLogLine = Type.Object({
  scanLogId: Uuid,
  loggedAtUtc: DateTime,
  level: Type.String({ description: 'info, warn or error' }),
  step: Type.String({
    description:
      'start, checkout, extract, store, cleanup, recovery, cancel, or policies (the evaluation that follows the scan is done)',
  }),
  message: Type.String(),
});

/** The take-only window (newest first) of scans and scan logs. */
export function TakeWindow<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    totalReturned: Type.Integer({ description: 'number of items in this window' }),
    take: Type.Integer({ description: 'window size applied' }),
  });
}

export function presentScan(row: ScanRow) {
  return {
    scanId: row.id,
    repositoryId: row.repository_id,
    state: row.state,
    trigger: row.trigger,
    branch: row.branch,
    commitSha: row.commit_sha,
    queuedAtUtc: row.queued_at.toISOString(),
    startedAtUtc: iso(row.started_at),
    finishedAtUtc: iso(row.finished_at),
    heartbeatAtUtc: iso(row.heartbeat_at),
    durationMs:
      row.started_at && row.finished_at
        ? Math.max(0, row.finished_at.getTime() - row.started_at.getTime())
        : null,
    attempt: row.attempt,
    error: row.error,
    countsByEcosystem: row.counts_by_ecosystem ?? {},
    dependencyCount: row.dependency_count,
    fileCount: row.file_count,
  };
}

export function presentScanLog(row: ScanLogRow) {
  return {
    scanLogId: row.id,
    loggedAtUtc: row.logged_at.toISOString(),
    level: row.level,
    step: row.step,
    message: row.message,
  };
}
