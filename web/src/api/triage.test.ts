import { describe, expect, it } from 'vitest';
import { exposureMoves, localInputToIso, triageBody, triageFields, violationMoves } from './triage';

describe('triage helpers', () => {
  it('offers only the moves of the current status; none for fixed or unknown', () => {
    expect(exposureMoves('affected')).toEqual(['investigating', 'affected', 'accepted_risk']);
    expect(exposureMoves('fixed')).toEqual([]);
    expect(exposureMoves('Open')).toEqual([]);
    expect(violationMoves('resolved')).toEqual([]);
    expect(violationMoves('open')).toContain('dismissed');
  });

  it('asks for a justification for not_affected, a reason and an expiry for accepted_risk', () => {
    expect(triageFields('not_affected')).toEqual({
      justification: true,
      reasonRequired: false,
      expiry: false,
    });
    expect(triageFields('accepted_risk')).toEqual({
      justification: false,
      reasonRequired: true,
      expiry: true,
    });
  });

  it('builds the PATCH body with only the fields the target status takes', () => {
    const base = {
      justification: 'code_not_reachable',
      reason: '  ',
      expiresLocal: '2030-01-02T03:04',
    };
    expect(triageBody({ ...base, status: 'investigating' })).toEqual({ status: 'investigating' });
    expect(triageBody({ ...base, status: 'not_affected', reason: ' dead code ' })).toEqual({
      status: 'not_affected',
      justification: 'code_not_reachable',
      reason: 'dead code',
    });
    const accepted = triageBody({ ...base, status: 'accepted_risk', reason: 'vendor fix due' });
    expect(accepted.justification).toBeUndefined();
    expect(accepted.expiresAtUtc).toBe(new Date('2030-01-02T03:04').toISOString());
  });

  it('reads a datetime-local value as an instant; blank or garbage is null', () => {
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('not a date')).toBeNull();
    expect(localInputToIso('2031-05-06T07:08')).toMatch(/^2031-05-0\dT\d\d:08:00.000Z$/);
  });
});
