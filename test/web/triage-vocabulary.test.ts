import { describe, expect, it } from 'vitest';
import * as exposures from '../../src/domains/exposures/state-machine';
import { EXPOSURE_STATUSES } from '../../src/domains/exposures/tables';
import {
  EXCEPTION_SCOPES,
  POLICY_ACTIONS,
  POLICY_SEVERITIES,
  VIOLATION_STATUSES,
} from '../../src/domains/policies/tables';
import * as violations from '../../src/domains/policies/violations/state-machine';
import { RULE_STATUSES } from '../../src/domains/triage-rules/tables';
import { ECOSYSTEMS } from '../../src/ecosystems/names';
import { FINDING_KINDS, SEVERITY_RATINGS } from '../../src/intel/osv/types';
import { REACHABILITIES } from '../../src/intel/reachability/analyse';
import * as web from '../../web/src/api/triage';

/**
 * The web app offers only the moves the service's state machines allow, but no route lists them
 * (web/src/api/triage.ts): this holds the web copy to the service's tables.
 */
describe("the web app's triage vocabulary matches the service's", () => {
  it('exposure statuses, moves and justifications', () => {
    expect(web.EXPOSURE_STATUSES).toEqual(EXPOSURE_STATUSES);
    expect(web.EXPOSURE_MOVES).toEqual(exposures.ALLOWED_MOVES);
    expect(web.VEX_JUSTIFICATIONS).toEqual(exposures.VEX_JUSTIFICATIONS);
    expect(web.RULE_STATUSES).toEqual(RULE_STATUSES);
  });

  it('violation statuses, moves, actions and exception scopes', () => {
    expect(web.VIOLATION_STATUSES).toEqual(VIOLATION_STATUSES);
    expect(web.VIOLATION_MOVES).toEqual(violations.ALLOWED_MOVES);
    expect(web.POLICY_ACTIONS).toEqual(POLICY_ACTIONS);
    expect(web.SEVERITIES).toEqual(POLICY_SEVERITIES);
    expect(web.EXCEPTION_SCOPES).toEqual(EXCEPTION_SCOPES);
  });

  it('filter vocabularies', () => {
    expect(web.SEVERITIES).toEqual(SEVERITY_RATINGS);
    expect(web.ECOSYSTEMS).toEqual(ECOSYSTEMS);
    expect(web.REACHABILITIES).toEqual(REACHABILITIES);
    expect(web.FINDING_KINDS).toEqual(FINDING_KINDS);
  });
});
