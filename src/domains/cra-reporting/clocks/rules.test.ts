import { describe, expect, it } from 'vitest';
import { addCalendarMonths, clocksAtAwareness, dueAt, stateAfterSubmission, warnAt } from './rules';

const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();
const HOUR = 3_600_000;

/** The wall-clock hour of an instant in a zone (to show the display shifts, the instant not). */
function localHour(date: Date, timeZone: string): number {
  return Number(
    new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(date),
  );
}

describe('Article 14 clock arithmetic', () => {
  it.each([
    // trigger, kind, start, due
    ['vulnerability', 'early_warning', '2026-09-11T08:30:00.000Z', '2026-09-12T08:30:00.000Z'],
    ['vulnerability', 'notification', '2026-09-11T08:30:00.000Z', '2026-09-14T08:30:00.000Z'],
    ['vulnerability', 'final_report', '2026-09-11T08:30:00.000Z', '2026-09-25T08:30:00.000Z'],
    ['incident', 'early_warning', '2026-12-31T23:00:00.000Z', '2027-01-01T23:00:00.000Z'],
    ['incident', 'notification', '2026-12-31T23:00:00.000Z', '2027-01-03T23:00:00.000Z'],
    ['incident', 'final_report', '2026-12-31T23:00:00.000Z', '2027-01-31T23:00:00.000Z'],
  ] as const)('%s %s from %s is due %s', (trigger, kind, start, due) => {
    expect(iso(dueAt(trigger, kind, at(start)))).toBe(due);
  });

  it.each([
    // Europe: summer time starts 29 March 2026 01:00 UTC, ends 25 October 2026 01:00 UTC.
    ['2026-03-28T12:00:00.000Z', 'spring forward'],
    ['2026-10-24T12:00:00.000Z', 'fall back'],
    // United States: 8 March and 1 November 2026, 02:00 local.
    ['2026-03-07T20:00:00.000Z', 'US spring forward'],
    ['2026-10-31T20:00:00.000Z', 'US fall back'],
  ])('24 h and 72 h stay elapsed hours across a DST change (%s, %s)', (start) => {
    const from = at(start);
    const early = dueAt('vulnerability', 'early_warning', from);
    const notification = dueAt('vulnerability', 'notification', from);
    const final = dueAt('vulnerability', 'final_report', from);
    expect(early.getTime() - from.getTime()).toBe(24 * HOUR);
    expect(notification.getTime() - from.getTime()).toBe(72 * HOUR);
    expect(final.getTime() - from.getTime()).toBe(14 * 24 * HOUR);
  });

  it('shows the same instant one hour apart in Berlin across spring forward: the due time is the instant', () => {
    const from = at('2026-03-28T12:00:00.000Z');
    const due = dueAt('incident', 'early_warning', from);
    expect(localHour(from, 'Europe/Berlin')).toBe(13);
    expect(localHour(due, 'Europe/Berlin')).toBe(14);
    expect(due.getTime() - from.getTime()).toBe(24 * HOUR);
  });

  it.each([
    ['2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00.000Z', '2028-02-29T10:00:00.000Z'],
    ['2026-01-30T10:00:00.000Z', '2026-02-28T10:00:00.000Z'],
    ['2026-03-31T00:00:00.000Z', '2026-04-30T00:00:00.000Z'],
    ['2026-02-28T23:59:59.999Z', '2026-03-28T23:59:59.999Z'],
    ['2026-12-31T18:00:00.000Z', '2027-01-31T18:00:00.000Z'],
    ['2026-08-31T06:00:00.000Z', '2026-09-30T06:00:00.000Z'],
    ['2026-05-15T09:00:00.000Z', '2026-06-15T09:00:00.000Z'],
  ])('one calendar month after %s is %s (month ends clamp, never spill)', (start, due) => {
    expect(iso(addCalendarMonths(at(start), 1))).toBe(due);
    expect(iso(dueAt('incident', 'final_report', at(start)))).toBe(due);
  });

  it('computes the month in UTC, so a month across a DST change keeps the UTC time of day', () => {
    const from = at('2026-03-15T10:00:00.000Z');
    const due = addCalendarMonths(from, 1);
    expect(iso(due)).toBe('2026-04-15T10:00:00.000Z');
    // Berlin shows 11:00 then 12:00: the rule is UTC, documented in docs/cra.md.
    expect(localHour(from, 'Europe/Berlin')).toBe(11);
    expect(localHour(due, 'Europe/Berlin')).toBe(12);
  });

  it('adds several months and crosses years', () => {
    expect(iso(addCalendarMonths(at('2026-11-30T00:00:00.000Z'), 3))).toBe(
      '2027-02-28T00:00:00.000Z',
    );
    expect(iso(addCalendarMonths(at('2026-01-31T00:00:00.000Z'), 13))).toBe(
      '2027-02-28T00:00:00.000Z',
    );
  });

  it('starts the early warning and the notification at awareness', () => {
    const clocks = clocksAtAwareness('incident', at('2026-10-24T12:00:00.000Z'));
    expect(clocks.map((c) => [c.kind, iso(c.dueAt)])).toEqual([
      ['early_warning', '2026-10-25T12:00:00.000Z'],
      ['notification', '2026-10-27T12:00:00.000Z'],
    ]);
  });

  it('meets a clock on or before its due time, misses it after', () => {
    const due = at('2026-09-12T08:30:00.000Z');
    expect(stateAfterSubmission(due, at('2026-09-12T08:30:00.000Z'))).toBe('met');
    expect(stateAfterSubmission(due, at('2026-09-12T08:30:00.001Z'))).toBe('missed');
  });

  it('warns a quarter of the span before due, at most 24 h before', () => {
    const start = at('2026-09-11T00:00:00.000Z');
    expect(iso(warnAt(start, dueAt('vulnerability', 'early_warning', start)))).toBe(
      '2026-09-11T18:00:00.000Z',
    );
    expect(iso(warnAt(start, dueAt('vulnerability', 'notification', start)))).toBe(
      '2026-09-13T06:00:00.000Z',
    );
    expect(iso(warnAt(start, dueAt('vulnerability', 'final_report', start)))).toBe(
      '2026-09-24T00:00:00.000Z',
    );
  });
});
