import { describe, expect, it } from 'vitest';
import {
  ALLOWED_MOVES,
  applyTransition,
  TRIAGE_STATUSES,
  type TransitionRequest,
} from './state-machine';
import { EXPOSURE_STATUSES, type ExposureStatus } from './tables';

const now = new Date('2026-01-01T00:00:00Z');
const future = new Date('2026-06-01T00:00:00Z');

/** The fields each target needs to be valid, so the table tests only the move itself. */
function requestFor(to: ExposureStatus): TransitionRequest {
  if (to === 'not_affected') return { status: to, justification: 'code_not_reachable' };
  if (to === 'accepted_risk')
    return { status: to, reason: 'compensating WAF rule', expiresAt: future };
  return { status: to };
}

// Expected table, written out by hand (rows: from; columns: to, in EXPOSURE_STATUSES order:
// open, investigating, affected, not_affected, false_positive, accepted_risk, fixed).
const EXPECTED: Record<ExposureStatus, string> = {
  open: '111111.',
  investigating: '111111.',
  affected: '.11..1.',
  not_affected: '1111...',
  false_positive: '111.1..',
  accepted_risk: '.11..1.',
  fixed: '.......',
};

describe('exposure state machine', () => {
  for (const from of EXPOSURE_STATUSES) {
    for (const [column, to] of EXPOSURE_STATUSES.entries()) {
      const allowed = EXPECTED[from][column] === '1';
      it(`${from} → ${to}: ${allowed ? 'allowed' : '422 errors.status'}`, () => {
        const result = applyTransition(from, requestFor(to), now);
        expect(result.ok).toBe(allowed);
        if (!result.ok) expect(Object.keys(result.errors)).toEqual(['status']);
        else expect(result.outcome.status).toBe(to);
      });
    }
  }

  it('matches the documented table', () => {
    for (const from of EXPOSURE_STATUSES) {
      const row = EXPOSURE_STATUSES.map((to) =>
        (ALLOWED_MOVES[from] as readonly string[]).includes(to) ? '1' : '.',
      ).join('');
      expect(row, from).toBe(EXPECTED[from]);
    }
    expect(TRIAGE_STATUSES).not.toContain('fixed');
  });

  it('needs a VEX justification for not_affected', () => {
    expect(applyTransition('open', { status: 'not_affected' }, now)).toEqual({
      ok: false,
      errors: { justification: [expect.stringContaining('required')] },
    });
    const bad = applyTransition('open', { status: 'not_affected', justification: 'trust me' }, now);
    expect(bad.ok ? null : Object.keys(bad.errors)).toEqual(['justification']);
    const extra = applyTransition(
      'open',
      { status: 'affected', justification: 'code_not_present' },
      now,
    );
    expect(extra.ok ? null : Object.keys(extra.errors)).toEqual(['justification']);
  });

  it('needs a reason and a future expiry for accepted_risk, and reports every missing field', () => {
    const none = applyTransition('open', { status: 'accepted_risk' }, now);
    expect(none.ok ? null : Object.keys(none.errors).sort()).toEqual(['expiresAtUtc', 'reason']);
    const past = applyTransition(
      'open',
      { status: 'accepted_risk', reason: 'r', expiresAt: new Date('2025-12-31T23:59:59Z') },
      now,
    );
    expect(past.ok ? null : past.errors.expiresAtUtc).toEqual(['must be in the future']);
    const both = applyTransition('fixed', { status: 'accepted_risk' }, now);
    expect(both.ok ? null : Object.keys(both.errors).sort()).toEqual([
      'expiresAtUtc',
      'reason',
      'status',
    ]);
    const ok = applyTransition(
      'affected',
      { status: 'accepted_risk', reason: ' r ', expiresAt: future },
      now,
    );
    expect(ok).toEqual({
      ok: true,
      outcome: { status: 'accepted_risk', justification: null, reason: 'r', acceptedUntil: future },
    });
  });

  it('never lets a person set fixed', () => {
    for (const from of EXPOSURE_STATUSES) {
      const result = applyTransition(from, { status: 'fixed' }, now);
      expect(result.ok ? null : Object.keys(result.errors)).toEqual(['status']);
    }
  });
});
