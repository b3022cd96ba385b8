/**
 * Triage of a quantum finding: the same state machine as exposures (src/domains/exposures/
 * state-machine.ts; docs/quantum.md). No route returns a finding's allowed moves, so this table
 * mirrors the service's (triage.test.ts pins it); the service still decides and answers 422 with
 * `errors` for anything else, which the screen shows.
 */
export const FINDING_STATUSES = [
  'open',
  'investigating',
  'affected',
  'not_affected',
  'false_positive',
  'accepted_risk',
  'fixed',
] as const;
export type FindingStatus = (typeof FINDING_STATUSES)[number];
export type TriageStatus = Exclude<FindingStatus, 'fixed'>;

const ALLOWED_MOVES: Record<FindingStatus, readonly TriageStatus[]> = {
  open: ['open', 'investigating', 'affected', 'not_affected', 'false_positive', 'accepted_risk'],
  investigating: [
    'open',
    'investigating',
    'affected',
    'not_affected',
    'false_positive',
    'accepted_risk',
  ],
  affected: ['investigating', 'affected', 'accepted_risk'],
  not_affected: ['open', 'investigating', 'affected', 'not_affected'],
  false_positive: ['open', 'investigating', 'affected', 'false_positive'],
  accepted_risk: ['investigating', 'affected', 'accepted_risk'],
  fixed: [],
};

/** CycloneDX VEX justifications: one is required for not_affected. */
export const VEX_JUSTIFICATIONS = [
  'code_not_present',
  'code_not_reachable',
  'requires_configuration',
  'requires_dependency',
  'requires_environment',
  'protected_by_compiler',
  'protected_at_runtime',
  'protected_at_perimeter',
  'protected_by_mitigating_control',
] as const;

/** The statuses a person may set from `status` (none for `fixed` or an unknown status). */
export function movesFrom(status: string): readonly TriageStatus[] {
  const known = FINDING_STATUSES.find((candidate) => candidate === status);
  return known ? ALLOWED_MOVES[known] : [];
}

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
