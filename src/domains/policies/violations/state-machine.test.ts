import { describe, expect, it } from 'vitest';
import { VIOLATION_STATUSES, type ViolationStatus } from '../tables';
import {
  ALLOWED_MOVES,
  initialStatus,
  type SystemEvent,
  systemMove,
  triage,
} from './state-machine';

/** The whole table, written out: [from, to, allowed by hand]. */
const BY_HAND: Record<ViolationStatus, Record<ViolationStatus, boolean>> = {
  open: { open: true, acknowledged: true, dismissed: true, excepted: false, resolved: false },
  acknowledged: {
    open: true,
    acknowledged: true,
    dismissed: true,
    excepted: false,
    resolved: false,
  },
  dismissed: { open: true, acknowledged: true, dismissed: true, excepted: false, resolved: false },
  excepted: {
    open: false,
    acknowledged: false,
    dismissed: false,
    excepted: false,
    resolved: false,
  },
  resolved: {
    open: false,
    acknowledged: false,
    dismissed: false,
    excepted: false,
    resolved: false,
  },
};

describe('policy violation state machine', () => {
  it('allows exactly the moves of the table by hand; others are errors.status', () => {
    for (const from of VIOLATION_STATUSES) {
      for (const to of VIOLATION_STATUSES) {
        const result = triage(from, to, 'because');
        expect(result.ok, `${from} -> ${to}`).toBe(BY_HAND[from][to]);
        if (!result.ok) expect(Object.keys(result.errors)).toEqual(['status']);
      }
      expect(triage(from, 'closed', 'x').ok).toBe(false);
      expect(ALLOWED_MOVES[from].length > 0).toBe(Object.values(BY_HAND[from]).some(Boolean));
    }
  });

  it('needs a reason to dismiss, and bounds its length', () => {
    expect(triage('open', 'dismissed', '  ')).toEqual({
      ok: false,
      errors: { reason: ['is required for dismissed'] },
    });
    expect(triage('open', 'dismissed', 'x'.repeat(2001)).ok).toBe(false);
    expect(triage('open', 'dismissed', ' used only in tests ')).toEqual({
      ok: true,
      status: 'dismissed',
      reason: 'used only in tests',
    });
    expect(triage('open', 'acknowledged', null)).toEqual({
      ok: true,
      status: 'acknowledged',
      reason: null,
    });
  });

  it('moves by the system: resolve, reopen, except and release', () => {
    const expected: [SystemEvent, Record<ViolationStatus, ViolationStatus | null>][] = [
      [
        { kind: 'holds', covered: false },
        { open: null, acknowledged: null, dismissed: null, excepted: 'open', resolved: 'open' },
      ],
      [
        { kind: 'holds', covered: true },
        {
          open: 'excepted',
          acknowledged: 'excepted',
          dismissed: 'excepted',
          excepted: null,
          resolved: 'excepted',
        },
      ],
      [
        { kind: 'cleared' },
        {
          open: 'resolved',
          acknowledged: 'resolved',
          dismissed: 'resolved',
          excepted: 'resolved',
          resolved: null,
        },
      ],
      [
        { kind: 'exception_granted' },
        {
          open: 'excepted',
          acknowledged: 'excepted',
          dismissed: 'excepted',
          excepted: null,
          resolved: null,
        },
      ],
      [
        { kind: 'exception_ended' },
        { open: null, acknowledged: null, dismissed: null, excepted: 'open', resolved: null },
      ],
    ];
    for (const [event, moves] of expected) {
      for (const from of VIOLATION_STATUSES) {
        expect(systemMove(from, event), `${from} on ${JSON.stringify(event)}`).toBe(moves[from]);
      }
    }
    expect(initialStatus(false)).toBe('open');
    expect(initialStatus(true)).toBe('excepted');
  });
});
