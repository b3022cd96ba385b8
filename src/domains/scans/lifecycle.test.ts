import { describe, expect, it } from 'vitest';
import {
  isFinal,
  nextScanState,
  reportScanEnd,
  SCAN_EVENTS,
  type ScanEvent,
  scanEnd,
} from './lifecycle';
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

  it('a final move ends a scan: its state and the seconds from claim; an active one has no end', () => {
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
    const row = (state: ScanState, started: Date | null, finished: Date | null) => ({
      state,
      started_at: started,
      finished_at: finished,
    });
    expect(scanEnd(row('completed', at(0), at(12)))).toEqual({ outcome: 'completed', seconds: 12 });
    // An import that failed before its claim held: no time from a claim.
    expect(scanEnd(row('failed', null, at(3)))).toEqual({ outcome: 'failed', seconds: 0 });
    expect(scanEnd(row('running', at(0), null))).toBeNull();
    expect(scanEnd(row('queued', null, null))).toBeNull();
    const seen: string[] = [];
    const observer = {
      jobFinished: () => {},
      scanFinished: (outcome: string, seconds: number) => seen.push(`${outcome} ${seconds}`),
      enrichmentFinished: () => {},
      registryFetched: () => {},
      feedFetched: () => {},
    };
    reportScanEnd(observer, row('cancelled', at(1), at(2)));
    reportScanEnd(observer, row('queued', null, null));
    reportScanEnd(observer, undefined);
    reportScanEnd(undefined, row('completed', at(0), at(1)));
    expect(seen).toEqual(['cancelled 1']);
  });
});
