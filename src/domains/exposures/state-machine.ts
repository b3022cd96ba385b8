import type { ExposureStatus } from './tables';

/**
 * Triage of a vulnerability exposure (docs/design.md#states). Pure: the service applies it, the table test
 * walks every pair. `fixed` belongs to the system (the version disappeared from the repository);
 * nobody can move into or out of it by hand, and it reopens as `open` when the version returns.
 */
export const TRIAGE_STATUSES = [
  'open',
  'investigating',
  'affected',
  'not_affected',
  'false_positive',
  'accepted_risk',
] as const satisfies readonly ExposureStatus[];
export type TriageStatus = (typeof TRIAGE_STATUSES)[number];

/**
 * Moves a person may make. Staying in the same status is allowed (PATCH with absolute values is
 * safe to repeat, and it updates the reason, the justification or the acceptance's expiry).
 * A confirmed `affected` must go back to `investigating` before it can be dismissed, and a
 * dismissal (`not_affected`, `false_positive`) or an acceptance is reopened through
 * `investigating`, `affected` or `open`, so that every dismissal is a deliberate step.
 */
export const ALLOWED_MOVES: Record<ExposureStatus, readonly TriageStatus[]> = {
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

/** CycloneDX VEX `analysis.justification` values, required for `not_affected`. */
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
export type VexJustification = (typeof VEX_JUSTIFICATIONS)[number];

export const MAX_REASON_LENGTH = 2000;

export interface TransitionRequest {
  status: ExposureStatus;
  justification?: string | null;
  reason?: string | null;
  expiresAt?: Date | null;
}

/** What the stored exposure becomes; the caller adds who and when. */
export interface TransitionOutcome {
  status: TriageStatus;
  justification: VexJustification | null;
  reason: string | null;
  acceptedUntil: Date | null;
}

export type TransitionResult =
  | { ok: true; outcome: TransitionOutcome }
  | { ok: false; errors: Record<string, string[]> };

function describeMoves(from: ExposureStatus): string {
  const moves = ALLOWED_MOVES[from];
  if (moves.length === 0) return `a ${from} exposure cannot be changed by hand`;
  return `from ${from} the allowed statuses are ${moves.join(', ')}`;
}

/**
 * Checks a requested move and its fields. Errors are keyed by request field (`status`,
 * `justification`, `reason`, `expiresAtUtc`); all of them are reported at once.
 */
export function applyTransition(
  from: ExposureStatus,
  request: TransitionRequest,
  now: Date,
): TransitionResult {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    if (!errors[field]) errors[field] = [];
    errors[field].push(message);
  };
  const to = request.status;
  if (to === 'fixed') {
    add('status', 'fixed is set by the system when the affected version leaves the repository');
  } else if (!(ALLOWED_MOVES[from] as readonly string[]).includes(to)) {
    add('status', `cannot move from ${from} to ${to}: ${describeMoves(from)}`);
  }

  const reason = request.reason?.trim() || null;
  if (reason && reason.length > MAX_REASON_LENGTH) {
    add('reason', `must be at most ${MAX_REASON_LENGTH} characters`);
  }

  let justification: VexJustification | null = null;
  if (to === 'not_affected') {
    const given = request.justification?.trim();
    if (!given) {
      add('justification', `is required for not_affected: one of ${VEX_JUSTIFICATIONS.join(', ')}`);
    } else if (!(VEX_JUSTIFICATIONS as readonly string[]).includes(given)) {
      add('justification', `must be one of ${VEX_JUSTIFICATIONS.join(', ')}`);
    } else {
      justification = given as VexJustification;
    }
  } else if (request.justification) {
    add('justification', 'is only accepted with status not_affected');
  }

  let acceptedUntil: Date | null = null;
  if (to === 'accepted_risk') {
    if (!reason) add('reason', 'is required for accepted_risk');
    if (!request.expiresAt) {
      add('expiresAtUtc', 'is required for accepted_risk');
    } else if (request.expiresAt.getTime() <= now.getTime()) {
      add('expiresAtUtc', 'must be in the future');
    } else {
      acceptedUntil = request.expiresAt;
    }
  } else if (request.expiresAt) {
    add('expiresAtUtc', 'is only accepted with status accepted_risk');
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    outcome: { status: to as TriageStatus, justification, reason, acceptedUntil },
  };
}
