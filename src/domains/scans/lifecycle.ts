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
