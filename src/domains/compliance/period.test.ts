import { describe, expect, it } from 'vitest';
import { ProblemError } from '../../core/problem';
import { parsePeriod } from './period';

const fails = (query: { periodStart?: string; periodEnd?: string }) => {
  try {
    parsePeriod(query);
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemError);
    return (error as ProblemError).status;
  }
  return 200;
};

describe('evidence periods', () => {
  it('reads a start date as 00:00 UTC and an end date as the whole day', () => {
    expect(parsePeriod({ periodStart: '2026-01-01', periodEnd: '2026-03-31' })).toEqual({
      start: new Date('2026-01-01T00:00:00Z'),
      end: new Date('2026-04-01T00:00:00Z'),
    });
  });

  it('takes date-times as given, the end exclusive', () => {
    expect(
      parsePeriod({
        periodStart: '2026-01-01T06:30:00Z',
        periodEnd: '2026-01-02T06:30:00.250+00:00',
      }),
    ).toEqual({
      start: new Date('2026-01-01T06:30:00Z'),
      end: new Date('2026-01-02T06:30:00.250Z'),
    });
  });

  it('allows one calendar year at most, leap days included', () => {
    expect(fails({ periodStart: '2024-02-29', periodEnd: '2025-02-28' })).toBe(200);
    expect(fails({ periodStart: '2024-02-29T00:00:00Z', periodEnd: '2025-03-01T00:00:00Z' })).toBe(
      200,
    );
    expect(fails({ periodStart: '2024-02-29', periodEnd: '2025-03-01' })).toBe(400);
    expect(fails({ periodStart: '2025-01-01', periodEnd: '2025-12-31' })).toBe(200);
    expect(fails({ periodStart: '2025-01-01', periodEnd: '2026-01-01' })).toBe(400);
  });

  it.each([
    '2026-1-01',
    '2026-01-01T00:00:00',
    '2026-01-01T00:00:00+01:00',
    '2026-04-31',
    '2026-01-01T25:00:00Z',
    '20260101',
    ' 2026-01-01',
  ])('refuses %j', (value) => {
    expect(fails({ periodStart: value, periodEnd: '2026-06-01' })).toBe(400);
  });
});
