import type { AlertStatus } from './tables';

/**
 * The alert lifecycle (docs/design.md#states): `open → acknowledged`, nothing else. Pure: the
 * service applies it, the table test walks every pair. Acknowledging twice is a 422, so a client
 * learns that someone else acknowledged first.
 */
export const ALERT_MOVES: Record<AlertStatus, readonly AlertStatus[]> = {
  open: ['acknowledged'],
  acknowledged: [],
};

export const MAX_NOTE_LENGTH = 2000;

export type AcknowledgeResult =
  | { ok: true; status: AlertStatus; note: string | null }
  | { ok: false; errors: Record<string, string[]> };

/** Checks a requested move (`to` defaults to acknowledged) and its note. */
export function applyAlertTransition(
  from: AlertStatus,
  request: { to: AlertStatus; note?: string | null },
): AcknowledgeResult {
  const errors: Record<string, string[]> = {};
  if (!ALERT_MOVES[from].includes(request.to)) {
    const allowed = ALERT_MOVES[from];
    errors.status = [
      from === request.to
        ? `the alert is already ${from}`
        : `cannot move from ${from} to ${request.to}${allowed.length ? `: allowed ${allowed.join(', ')}` : ''}`,
    ];
  }
  const note = request.note?.trim() || null;
  if (note && note.length > MAX_NOTE_LENGTH) {
    errors.note = [`must be at most ${MAX_NOTE_LENGTH} characters`];
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, status: request.to, note };
}
