import { describe, expect, it } from 'vitest';
import { isFinal, nextScanState, SCAN_EVENTS, type ScanEvent } from './lifecycle';
import { SCAN_STATES } from './store';
import type { ScanState } from './tables';

/** Every (state, event) pair: the allowed moves, and null for everything else. */
const EXPECTED: Record<ScanState, Record<ScanEvent, ScanState | null>> = {
  queued: { claim: 'running', complete: null, fail: 'failed', cancel: 'cancelled', requeue: null },
  running: {
    claim: null,
    complete: 'completed',
    fail: 'failed',
    cancel: 'cancelled',
    requeue: 'queued',
  },
  completed: { claim: null, complete: null, fail: null, cancel: null, requeue: null },
  failed: { claim: null, complete: null, fail: null, cancel: null, requeue: null },
  cancelled: { claim: null, complete: null, fail: null, cancel: null, requeue: null },
};

describe('scan lifecycle', () => {
  for (const state of SCAN_STATES) {
    for (const event of SCAN_EVENTS) {
      it(`${state} + ${event} → ${EXPECTED[state][event] ?? 'refused'}`, () => {
        expect(nextScanState(state, event)).toBe(EXPECTED[state][event]);
      });
    }
  }

  it('finished states are final: no event leaves them', () => {
    for (const state of SCAN_STATES) {
      const leaves = SCAN_EVENTS.some((event) => nextScanState(state, event) !== null);
      expect(leaves).toBe(!isFinal(state));
    }
  });
});
