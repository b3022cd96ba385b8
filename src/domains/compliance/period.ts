import { badRequest } from '../../core/problem';

export interface Period {
  start: Date;
  /** Exclusive. */
  end: Date;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// ISO 8601 UTC, as the specification's time-window values are: a Z or +00:00 offset.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]00:?00)$/i;
const DAY_MS = 86_400_000;

/**
 * One bound: a UTC date-time, or a date (a start date is that day's 00:00 UTC, an end date
 * includes that whole day, so `2026-01-01`..`2026-03-31` is the first quarter). Null: malformed.
 */
function parseBound(value: string, bound: 'start' | 'end'): Date | null {
  if (DATE_ONLY.test(value)) {
    const day = new Date(`${value}T00:00:00.000Z`);
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) return null;
    return bound === 'end' ? new Date(day.getTime() + DAY_MS) : day;
  }
  if (!DATE_TIME.test(value)) return null;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) return null;
  // Date rolls 2026-02-30 over to March; the calendar date must survive the round trip.
  if (time.toISOString().slice(0, 10) !== value.slice(0, 10)) return null;
  return time;
}

/** One calendar year after `start` (29 February goes to 1 March). */
function oneYearAfter(start: Date): Date {
  const end = new Date(start.getTime());
  end.setUTCFullYear(end.getUTCFullYear() + 1);
  return end;
}

/**
 * The evidence period of `periodStart` and `periodEnd` (docs/compliance.md#periods): both
 * required, ISO 8601 UTC; the end after the start and at most one calendar year later. Anything
 * else is a 400 naming the field.
 */
export function parsePeriod(query: { periodStart?: string; periodEnd?: string }): Period {
  const errors: Record<string, string[]> = {};
  const bounds = { periodStart: 'start', periodEnd: 'end' } as const;
  const parsed: Partial<Record<keyof typeof bounds, Date>> = {};
  for (const [name, bound] of Object.entries(bounds) as [keyof typeof bounds, 'start' | 'end'][]) {
    const value = query[name];
    if (value === undefined || value === '') {
      errors[name] = ['is required'];
      continue;
    }
    const date = parseBound(value, bound);
    if (date) parsed[name] = date;
    else errors[name] = ['must be an ISO 8601 UTC date (YYYY-MM-DD) or date-time ending in Z'];
  }
  const { periodStart: start, periodEnd: end } = parsed;
  if (!start || !end) throw badRequest('The evidence period is missing or malformed.', errors);
  if (end <= start) {
    throw badRequest('The evidence period ends before it starts.', {
      periodEnd: ['must be after periodStart'],
    });
  }
  if (end > oneYearAfter(start)) {
    throw badRequest('The evidence period is longer than a year.', {
      periodEnd: ['must be at most one year after periodStart'],
    });
  }
  return { start, end };
}
