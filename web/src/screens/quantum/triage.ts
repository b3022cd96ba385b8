/**
 * Triage of a quantum finding: the same state machine as exposures (src/domains/exposures/
 * state-machine.ts; docs/quantum.md), whose web copy is api/triage.ts (pinned to the service's
 * by test/web/triage-vocabulary.test.ts); the service still decides and answers 422 with
 * `errors` for anything else, which the screen shows.
 */
import {
  EXPOSURE_STATUSES,
  exposureMoves,
  type TriageStatus,
  VEX_JUSTIFICATIONS,
} from '../../api/triage';

/** A finding's statuses and moves are the exposures': one table in the app (api/triage.ts). */
export const FINDING_STATUSES = EXPOSURE_STATUSES;
export { type TriageStatus, VEX_JUSTIFICATIONS };

/** The statuses a person may set from `status` (none for `fixed` or an unknown status). */
export const movesFrom = exposureMoves;

export interface TriageForm {
  status: TriageStatus;
  justification: string;
  reason: string;
  /** yyyy-mm-dd from a date input: the acceptance ends at the end of that day (UTC). */
  expiresOn: string;
}

export interface TriageBody {
  status: TriageStatus;
  justification?: string;
  reason?: string;
  expiresAtUtc?: string;
}

/**
 * The PATCH body: justification only with not_affected, the expiry only with accepted_risk
 * (the service rejects them elsewhere), a blank reason left out.
 */
export function triageBody(form: TriageForm): TriageBody {
  const body: TriageBody = { status: form.status };
  const reason = form.reason.trim();
  if (reason !== '') body.reason = reason;
  if (form.status === 'not_affected' && form.justification !== '') {
    body.justification = form.justification;
  }
  if (form.status === 'accepted_risk' && /^\d{4}-\d{2}-\d{2}$/.test(form.expiresOn)) {
    body.expiresAtUtc = `${form.expiresOn}T23:59:59.000Z`;
  }
  return body;
}
