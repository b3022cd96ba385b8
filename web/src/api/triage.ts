/**
 * The vocabularies and state machines the vulnerability and policy screens offer. The API
 * answers 422 for a move it refuses but has no route listing the allowed moves, so these mirror
 * src/domains/exposures/state-machine.ts and src/domains/policies/violations/state-machine.ts;
 * test/web/triage-vocabulary.test.ts fails when either side changes without the other.
 */

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const ECOSYSTEMS = [
  'npm',
  'PyPI',
  'Maven',
  'Go',
  'Cargo',
  'RubyGems',
  'Composer',
  'NuGet',
  'Docker',
] as const;
export const REACHABILITIES = ['imported', 'used_by_tooling', 'not_imported', 'unknown'] as const;
export const FINDING_KINDS = ['vulnerability', 'malicious'] as const;

export const EXPOSURE_STATUSES = [
  'open',
  'investigating',
  'affected',
  'not_affected',
  'false_positive',
  'accepted_risk',
  'fixed',
] as const;
export type ExposureStatus = (typeof EXPOSURE_STATUSES)[number];
export type TriageStatus = Exclude<ExposureStatus, 'fixed'>;

/** A person's moves from each status (staying updates the reason, justification or expiry). */
export const EXPOSURE_MOVES: Record<ExposureStatus, readonly TriageStatus[]> = {
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

/** CycloneDX VEX justifications, required for not_affected. */
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

/** What a triage rule may decide. */
export const RULE_STATUSES = ['not_affected', 'false_positive', 'accepted_risk'] as const;

export const POLICY_ACTIONS = ['inform', 'warn', 'block'] as const;
export const VIOLATION_STATUSES = [
  'open',
  'acknowledged',
  'dismissed',
  'excepted',
  'resolved',
] as const;
export type ViolationStatus = (typeof VIOLATION_STATUSES)[number];
export const VIOLATION_MOVES: Record<ViolationStatus, readonly string[]> = {
  open: ['open', 'acknowledged', 'dismissed'],
  acknowledged: ['open', 'acknowledged', 'dismissed'],
  dismissed: ['open', 'acknowledged', 'dismissed'],
  excepted: [],
  resolved: [],
};
export const EXCEPTION_SCOPES = ['violation', 'repository_package', 'tenant_package'] as const;

/** The moves offered for a status as the API spells it (an unknown status offers none). */
export function exposureMoves(status: string): readonly TriageStatus[] {
  const known = EXPOSURE_STATUSES.find((candidate) => candidate === status);
  return known ? EXPOSURE_MOVES[known] : [];
}

export function violationMoves(status: string): readonly string[] {
  const known = VIOLATION_STATUSES.find((candidate) => candidate === status);
  return known ? VIOLATION_MOVES[known] : [];
}

/** Which fields a triage to `status` asks for (the state machine's rules). */
export function triageFields(status: string): {
  justification: boolean;
  reasonRequired: boolean;
  expiry: boolean;
} {
  return {
    justification: status === 'not_affected',
    reasonRequired: status === 'accepted_risk',
    expiry: status === 'accepted_risk',
  };
}

/** A `datetime-local` input's value (the person's local time) as an ISO instant, or null. */
export function localInputToIso(value: string): string | null {
  if (value.trim() === '') return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export interface TriageForm {
  status: string;
  justification: string;
  reason: string;
  expiresLocal: string;
}

/**
 * The PATCH body for a triage form: only the fields the target status takes (the API refuses a
 * justification or an expiry elsewhere), blanks left out so the API reports what is missing.
 */
export function triageBody(form: TriageForm): {
  status: string;
  justification?: string;
  reason?: string;
  expiresAtUtc?: string;
} {
  const fields = triageFields(form.status);
  const reason = form.reason.trim();
  const expires = fields.expiry ? localInputToIso(form.expiresLocal) : null;
  return {
    status: form.status,
    ...(fields.justification && form.justification ? { justification: form.justification } : {}),
    ...(reason ? { reason } : {}),
    ...(expires ? { expiresAtUtc: expires } : {}),
  };
}
