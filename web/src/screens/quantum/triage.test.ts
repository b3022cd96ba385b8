import { describe, expect, it } from 'vitest';
import { FINDING_STATUSES, movesFrom, triageBody } from './triage';

/**
 * The service's table (src/domains/exposures/state-machine.ts, docs/design.md#states), written
 * out as from -> allowed targets in FINDING_STATUSES order (1 allowed, . not): if either side
 * changes, this fails.
 */
const EXPECTED: Record<string, string> = {
  open: '111111.',
  investigating: '111111.',
  affected: '.11..1.',
  not_affected: '1111...',
  false_positive: '111.1..',
  accepted_risk: '.11..1.',
  fixed: '.......',
};

describe('quantum finding triage moves', () => {
  for (const from of FINDING_STATUSES) {
    it(`from ${from}`, () => {
      const row = FINDING_STATUSES.map((to) =>
        (movesFrom(from) as readonly string[]).includes(to) ? '1' : '.',
      ).join('');
      expect(row).toBe(EXPECTED[from]);
    });
  }
  it('offers nothing for an unknown status', () => {
    expect(movesFrom('archived')).toEqual([]);
  });
});

describe('triageBody', () => {
  const blank = { justification: '', reason: '', expiresOn: '' };
  it('sends only the fields the status takes', () => {
    expect(
      triageBody({ ...blank, status: 'investigating', justification: 'code_not_present' }),
    ).toEqual({ status: 'investigating' });
    expect(
      triageBody({ ...blank, status: 'not_affected', justification: 'code_not_reachable' }),
    ).toEqual({ status: 'not_affected', justification: 'code_not_reachable' });
    expect(
      triageBody({
        status: 'accepted_risk',
        justification: 'code_not_present',
        reason: '  vendor fix due in Q3 ',
        expiresOn: '2027-03-31',
      }),
    ).toEqual({
      status: 'accepted_risk',
      reason: 'vendor fix due in Q3',
      expiresAtUtc: '2027-03-31T23:59:59.000Z',
    });
  });
  it('leaves a malformed date for the service to reject', () => {
    expect(triageBody({ ...blank, status: 'accepted_risk', expiresOn: '31/03/2027' })).toEqual({
      status: 'accepted_risk',
    });
  });
});
