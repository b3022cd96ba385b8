import type { JobObserver } from '../job-deps';
import type { ScanState } from './tables';

/**
 * The scan lifecycle (docs/repositories-and-scans.md, "Scan states"). Pure: the scan store
 * applies it to every write of the `scans` table, the table test walks every pair.
 *
 *   queued → running → completed | failed
 *   queued | running → cancelled
 *   running → queued   (recovery: the run's process died; a new attempt is queued)
 *   queued → failed    (a run that could not start, e.g. an SBOM import whose document is gone)
 *
 * Finished states (completed, failed, cancelled) are final.
 */
export type ScanEvent = 'claim' | 'complete' | 'fail' | 'cancel' | 'requeue';

export const SCAN_EVENTS: readonly ScanEvent[] = ['claim', 'complete', 'fail', 'cancel', 'requeue'];

export const SCAN_TRANSITIONS: Record<ScanEvent, { from: readonly ScanState[]; to: ScanState }> = {
  claim: { from: ['queued'], to: 'running' },
  complete: { from: ['running'], to: 'completed' },
  fail: { from: ['queued', 'running'], to: 'failed' },
  cancel: { from: ['queued', 'running'], to: 'cancelled' },
  requeue: { from: ['running'], to: 'queued' },
};

/** Finished states: no event leaves them. */
export const FINAL_STATES: readonly ScanState[] = ['completed', 'failed', 'cancelled'];

/** The state `event` moves a scan in `state` to, or null when the move is not allowed. */
export function nextScanState(state: ScanState, event: ScanEvent): ScanState | null {
  const transition = SCAN_TRANSITIONS[event];
  return transition.from.includes(state) ? transition.to : null;
}

export function isFinal(state: ScanState): boolean {
  return FINAL_STATES.includes(state);
}

/** A scan row's times, as a move returns them. */
export interface ScanTimes {
  state: ScanState;
  started_at: Date | null;
  finished_at: Date | null;
}

/**
 * How a scan ended, from the row a move to a final state returned: its final state and the
 * seconds from its claim (none for a scan never claimed, such as an import that failed before
 * it began); null for a scan not finished.
 */
export function scanEnd(scan: ScanTimes): { outcome: ScanState; seconds: number } | null {
  if (!isFinal(scan.state) || !scan.finished_at) return null;
  const from = scan.started_at ?? scan.finished_at;
  return { outcome: scan.state, seconds: (scan.finished_at.getTime() - from.getTime()) / 1000 };
}

/**
 * Reports the scan a run ended to the job observer (docs/operations.md#metrics), from the row
 * the run's own final move returned: no read of the scan only to report it. Nothing for a run
 * that ended no scan (skipped, or left it queued for a retry).
 */
export function reportScanEnd(observe: JobObserver | undefined, scan: ScanTimes | undefined): void {
  const end = scan ? scanEnd(scan) : null;
  if (end) observe?.scanFinished(end.outcome, end.seconds);
}
