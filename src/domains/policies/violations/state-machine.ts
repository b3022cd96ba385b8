import type { ViolationStatus } from '../tables';

/**
 * Every transition of a policy violation (docs/policies.md#violation-states), people's and the
 * system's. Pure: the services apply what it returns, and the table test walks every pair.
 *
 * - People (PATCH) triage: open, acknowledged, dismissed (needs a reason). `excepted` is reached
 *   only by granting an exception, `resolved` only by the system.
 * - The system resolves a violation whose condition no longer holds, reopens a resolved one
 *   whose condition holds again (excepted when an active exception covers it), moves covered
 *   violations to `excepted` when an exception is granted and back to `open` when it ends.
 */
export const TRIAGE_STATUSES = ['open', 'acknowledged', 'dismissed'] as const;
export type TriageStatus = (typeof TRIAGE_STATUSES)[number];

/** Moves a person may make; staying is allowed (PATCH is safe to repeat, updates the reason). */
export const ALLOWED_MOVES: Record<ViolationStatus, readonly TriageStatus[]> = {
  open: ['open', 'acknowledged', 'dismissed'],
  acknowledged: ['open', 'acknowledged', 'dismissed'],
  dismissed: ['open', 'acknowledged', 'dismissed'],
  excepted: [],
  resolved: [],
};

export const MAX_REASON_LENGTH = 2000;

export type TriageResult =
  | { ok: true; status: TriageStatus; reason: string | null }
  | { ok: false; errors: Record<string, string[]> };

function describeMoves(from: ViolationStatus): string {
  if (from === 'excepted') return 'an excepted violation reopens when its exception is deleted';
  if (from === 'resolved') return 'a resolved violation reopens when its condition holds again';
  return `from ${from} the allowed statuses are ${ALLOWED_MOVES[from].join(', ')}`;
}

/** Checks a person's move; errors are keyed by request field (`status`, `reason`). */
export function triage(from: ViolationStatus, to: string, reasonGiven?: string | null) {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] ??= [];
    errors[field].push(message);
  };
  const reason = reasonGiven?.trim() || null;
  if (to === 'excepted') {
    add('status', 'excepted is set by granting an exception (POST .../exception)');
  } else if (to === 'resolved') {
    add('status', 'resolved is set by the system when the condition no longer holds');
  } else if (!(ALLOWED_MOVES[from] as readonly string[]).includes(to)) {
    add('status', `cannot move from ${from} to ${to}: ${describeMoves(from)}`);
  }
  if (to === 'dismissed' && !reason) add('reason', 'is required for dismissed');
  if (reason && reason.length > MAX_REASON_LENGTH) {
    add('reason', `must be at most ${MAX_REASON_LENGTH} characters`);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors } satisfies TriageResult;
  return { ok: true, status: to as TriageStatus, reason } satisfies TriageResult;
}

export type SystemEvent =
  /** An evaluation found the condition true; `covered`: an active exception covers it. */
  | { kind: 'holds'; covered: boolean }
  /** An evaluation found the condition false (or the dependency gone). */
  | { kind: 'cleared' }
  | { kind: 'exception_granted' }
  | { kind: 'exception_ended' };

/** Where the system moves a violation, or null when the event leaves it as it is. */
export function systemMove(from: ViolationStatus, event: SystemEvent): ViolationStatus | null {
  switch (event.kind) {
    case 'holds':
      if (from === 'resolved') return event.covered ? 'excepted' : 'open';
      // An exception granted on another repository's violation covers this one from now on.
      if (event.covered && from !== 'excepted') return 'excepted';
      // The exception that covered it is gone (expired, deleted).
      if (!event.covered && from === 'excepted') return 'open';
      return null;
    case 'cleared':
      return from === 'resolved' ? null : 'resolved';
    case 'exception_granted':
      return from === 'open' || from === 'acknowledged' || from === 'dismissed' ? 'excepted' : null;
    case 'exception_ended':
      return from === 'excepted' ? 'open' : null;
  }
}

/** The status of a violation seen for the first time. */
export function initialStatus(covered: boolean): ViolationStatus {
  return covered ? 'excepted' : 'open';
}
