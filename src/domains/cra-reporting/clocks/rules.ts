/**
 * The arithmetic of the Article 14 clocks (docs/cra.md#article-14-clocks), pure: no database,
 * no clock of its own. Due times are instants (UTC); nothing here depends on a time zone.
 *
 * - Hour periods are elapsed time: 24 h is 86,400 s after the start, across any
 *   daylight-saving change of any local time zone.
 * - "One month" is one calendar month in UTC: the same day of the next month at the same UTC
 *   time of day; when the next month has no such day (31 January → February), the last day of
 *   that month at that time (28 or 29 February). Days are never carried into the month after.
 */

export const CLOCK_KINDS = ['early_warning', 'notification', 'final_report'] as const;
export type ClockKind = (typeof CLOCK_KINDS)[number];

export const CLOCK_TRIGGERS = ['vulnerability', 'incident'] as const;
export type ClockTrigger = (typeof CLOCK_TRIGGERS)[number];

export const CLOCK_STATES = ['running', 'met', 'missed'] as const;
export type ClockState = (typeof CLOCK_STATES)[number];

const HOUR_MS = 3_600_000;

/** `hours` of elapsed time after `start`. */
export function addHours(start: Date, hours: number): Date {
  return new Date(start.getTime() + hours * HOUR_MS);
}

/** Days of elapsed time (24 h each) after `start`. */
export function addDays(start: Date, days: number): Date {
  return addHours(start, days * 24);
}

function daysInUtcMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** `months` calendar months after `start` in UTC, clamped to the last day of a shorter month. */
export function addCalendarMonths(start: Date, months: number): Date {
  const total = start.getUTCFullYear() * 12 + start.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(start.getUTCDate(), daysInUtcMonth(year, month));
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      start.getUTCHours(),
      start.getUTCMinutes(),
      start.getUTCSeconds(),
      start.getUTCMilliseconds(),
    ),
  );
}

/** What starts a final-report clock, by trigger (Art. 14(2)(c) and 14(4)(c)). */
export const FINAL_REPORT_STARTS: Record<ClockTrigger, string> = {
  vulnerability: 'a corrective or mitigating measure is available',
  incident: 'the notification was submitted',
};

/**
 * The due time of a clock of `kind` started at `start`. Early warning and notification start at
 * awareness; the final report starts when a corrective measure is available (vulnerability:
 * 14 days) or when the notification was submitted (incident: one calendar month).
 */
export function dueAt(trigger: ClockTrigger, kind: ClockKind, start: Date): Date {
  switch (kind) {
    case 'early_warning':
      return addHours(start, 24);
    case 'notification':
      return addHours(start, 72);
    case 'final_report':
      return trigger === 'vulnerability' ? addDays(start, 14) : addCalendarMonths(start, 1);
  }
}

/** The clocks awareness starts at once (the final report waits for its own start). */
export function clocksAtAwareness(
  trigger: ClockTrigger,
  awareAt: Date,
): { kind: ClockKind; startedAt: Date; dueAt: Date }[] {
  return (['early_warning', 'notification'] as const).map((kind) => ({
    kind,
    startedAt: awareAt,
    dueAt: dueAt(trigger, kind, awareAt),
  }));
}

/** A submission on or before the due time meets the clock; a later one is recorded, but missed. */
export function stateAfterSubmission(due: Date, submittedAt: Date): 'met' | 'missed' {
  return submittedAt.getTime() <= due.getTime() ? 'met' : 'missed';
}

/**
 * When a running clock raises its "falls due" alert: a quarter of its span before the due
 * time, at most 24 h before (early warning 6 h, notification 18 h, final report 24 h).
 */
export function warnAt(startedAt: Date, due: Date): Date {
  const span = due.getTime() - startedAt.getTime();
  const lead = Math.min(span / 4, 24 * HOUR_MS);
  return new Date(due.getTime() - Math.max(0, lead));
}
