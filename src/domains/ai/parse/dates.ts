/**
 * Periods in a question, in the asker's time zone (an IANA name; UTC when none is given):
 * "today", "yesterday", "this/last week|month|quarter|year", "last 30 days", "past 2 weeks",
 * "since Monday", "since yesterday", "since 2026-11-01", "in Q3 [2025]", "in November [2025]",
 * "in 2025", "between 2026-01-01 and 2026-02-01", "on 2026-12-01", "before/after <date>".
 * Weeks start on Monday (ISO 8601). A period is a half-open UTC interval [from, to) plus the
 * words it was read from. Only Intl is used: no date library is in the project's dependencies.
 */
export interface Period {
  from: Date;
  to: Date;
  label: string;
}

interface LocalDate {
  year: number;
  month: number; // 1-12
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let known = formatters.get(timeZone);
  if (!known) {
    known = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, known);
  }
  return known;
}

/** Whether `timeZone` is an IANA zone name this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function partsAt(instant: Date, timeZone: string): Parts {
  const parts: Parts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type in parts) parts[part.type as keyof Parts] = Number(part.value);
  }
  return parts;
}

/** The zone's offset from UTC at `instant`, in milliseconds. */
function offsetAt(instant: Date, timeZone: string): number {
  const p = partsAt(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant a local calendar day starts in `timeZone` (DST-safe: offset checked twice). */
export function startOfLocalDay(date: LocalDate, timeZone: string): Date {
  const guess = Date.UTC(date.year, date.month - 1, date.day);
  const first = guess - offsetAt(new Date(guess), timeZone);
  return new Date(guess - offsetAt(new Date(first), timeZone));
}

export function localDateOf(instant: Date, timeZone: string): LocalDate {
  const p = partsAt(instant, timeZone);
  return { year: p.year, month: p.month, day: p.day };
}

/** Calendar arithmetic on local dates (through UTC, where every day has 24 hours). */
function addDays(date: LocalDate, days: number): LocalDate {
  const t = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

function weekday(date: LocalDate): number {
  // 0 = Monday ... 6 = Sunday
  return (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7;
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_WORD = `(${MONTHS.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?`).join('|')})`;
const ISO_DATE = String.raw`(\d{4})-(\d{2})-(\d{2})`;

function monthIndex(word: string): number {
  return MONTHS.findIndex((m) => m.startsWith(word.slice(0, 3))) + 1;
}

interface Context {
  today: LocalDate;
  now: Date;
  zone: string;
}

type Reader = (text: string, c: Context) => Period | null;

function span(c: Context, from: LocalDate, toExclusive: LocalDate, label: string): Period {
  return { from: startOfLocalDay(from, c.zone), to: startOfLocalDay(toExclusive, c.zone), label };
}

function untilNow(c: Context, from: LocalDate, label: string): Period {
  return { from: startOfLocalDay(from, c.zone), to: c.now, label };
}

function isoDate(m: RegExpExecArray, at: number): LocalDate | null {
  const date = { year: Number(m[at]), month: Number(m[at + 1]), day: Number(m[at + 2]) };
  const check = new Date(Date.UTC(date.year, date.month - 1, date.day));
  return check.getUTCMonth() + 1 === date.month && check.getUTCDate() === date.day ? date : null;
}

const unitDays = (unit: string, n: number) =>
  unit.startsWith('week') ? 7 * n : unit.startsWith('month') ? 30 * n : n;

const READERS: readonly Reader[] = [
  (text, c) => {
    const m = new RegExp(`\\bbetween ${ISO_DATE} and ${ISO_DATE}`).exec(text);
    const from = m && isoDate(m, 1);
    const to = m && isoDate(m, 4);
    return from && to ? span(c, from, addDays(to, 1), m[0]) : null;
  },
  (text, c) => {
    const m = new RegExp(`\\b(since|after|from|on|before|until) ${ISO_DATE}`).exec(text);
    const date = m && isoDate(m, 2);
    if (!m || !date) return null;
    if (m[1] === 'on') return span(c, date, addDays(date, 1), m[0]);
    if (m[1] === 'before' || m[1] === 'until') {
      return {
        from: new Date(0),
        to: startOfLocalDay(m[1] === 'until' ? addDays(date, 1) : date, c.zone),
        label: m[0],
      };
    }
    return untilNow(c, m[1] === 'after' ? addDays(date, 1) : date, m[0]);
  },
  (text, c) => {
    const m =
      /\b(?:in the |over the |during the |within the )?(?:last|past|previous) (\d{1,3}) (days?|weeks?|months?)\b/.exec(
        text,
      );
    if (!m) return null;
    return untilNow(c, addDays(c.today, -unitDays(m[2] ?? 'day', Number(m[1])) + 1), m[0]);
  },
  (text, c) => {
    const m = /\b(today|yesterday|since yesterday)\b/.exec(text);
    if (!m) return null;
    if (m[1] === 'today') return untilNow(c, c.today, m[0]);
    const yesterday = addDays(c.today, -1);
    return m[1] === 'yesterday' ? span(c, yesterday, c.today, m[0]) : untilNow(c, yesterday, m[0]);
  },
  (text, c) => {
    const m = new RegExp(`\\bsince (last )?(${WEEKDAYS.join('|')})\\b`).exec(text);
    if (!m) return null;
    const wanted = WEEKDAYS.indexOf(m[2] ?? '');
    let back = (weekday(c.today) - wanted + 7) % 7;
    if (m[1]) back += back === 0 ? 7 : 0;
    return untilNow(c, addDays(c.today, -back), m[0]);
  },
  (text, c) => {
    const m = /\b(this|last|previous|past) (week|month|quarter|year)\b/.exec(text);
    if (!m) return null;
    const since = /\bsince (?:the )?(?:start of )?$/.test(text.slice(0, m.index));
    return calendarUnit(c, m[2] ?? 'week', m[1] === 'this' ? 0 : -1, m[0], since);
  },
  (text, c) => {
    const m = /\b(?:in |during |for )?q([1-4])(?:\s*(\d{4}))?\b/.exec(text);
    if (!m) return null;
    const quarter = Number(m[1]);
    let year = m[2] ? Number(m[2]) : c.today.year;
    // "in Q3" without a year: the latest Q3 that has begun.
    if (!m[2] && (quarter - 1) * 3 + 1 > c.today.month) year -= 1;
    const from = { year, month: (quarter - 1) * 3 + 1, day: 1 };
    return span(c, from, addMonths(from, 3), m[0]);
  },
  (text, c) => {
    const m = new RegExp(`\\b(in|during|since|for) ${MONTH_WORD}(?:\\s+(\\d{4}))?\\b`).exec(text);
    if (!m) return null;
    const month = monthIndex(m[2] ?? '');
    let year = m[3] ? Number(m[3]) : c.today.year;
    if (!m[3] && month > c.today.month) year -= 1;
    const from = { year, month, day: 1 };
    return m[1] === 'since' ? untilNow(c, from, m[0]) : span(c, from, addMonths(from, 1), m[0]);
  },
  (text, c) => {
    const m = /\b(in|during|since) (\d{4})\b/.exec(text);
    if (!m || Number(m[2]) < 1990 || Number(m[2]) > 2100) return null;
    const from = { year: Number(m[2]), month: 1, day: 1 };
    return m[1] === 'since'
      ? untilNow(c, from, m[0])
      : span(c, from, { year: from.year + 1, month: 1, day: 1 }, m[0]);
  },
];

function addMonths(date: LocalDate, months: number): LocalDate {
  const index = date.year * 12 + (date.month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1, day: 1 };
}

function calendarUnit(
  c: Context,
  unit: string,
  shift: number,
  label: string,
  since: boolean,
): Period {
  let from: LocalDate;
  let length: (d: LocalDate) => LocalDate;
  if (unit === 'week') {
    from = addDays(c.today, -weekday(c.today) + 7 * shift);
    length = (d) => addDays(d, 7);
  } else if (unit === 'month') {
    from = addMonths({ ...c.today, day: 1 }, shift);
    length = (d) => addMonths(d, 1);
  } else if (unit === 'quarter') {
    const first = {
      year: c.today.year,
      month: Math.floor((c.today.month - 1) / 3) * 3 + 1,
      day: 1,
    };
    from = addMonths(first, 3 * shift);
    length = (d) => addMonths(d, 3);
  } else {
    from = { year: c.today.year + shift, month: 1, day: 1 };
    length = (d) => ({ year: d.year + 1, month: 1, day: 1 });
  }
  // "this week" and "since last week" run until now; "last week" is the whole past week.
  return shift === 0 || since ? untilNow(c, from, label) : span(c, from, length(from), label);
}

/** The first period `text` (lower-case) names, or null. */
export function periodIn(text: string, now: Date, timeZone: string): Period | null {
  const c: Context = { today: localDateOf(now, timeZone), now, zone: timeZone };
  for (const read of READERS) {
    const period = read(text, c);
    if (period) return period;
  }
  return null;
}
