import { describe, expect, it } from 'vitest';
import {
  databaseScore,
  effectiveSeverity,
  maxSeverity,
  ratingFromDatabase,
  ratingFromScore,
  scoreSeverityEntry,
  scoreVector,
} from './severity';
import type { CvssScore, Severity } from './types';

describe('CVSS base scores (published reference values)', () => {
  it.each([
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', '3.1', 9.8],
    ['CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', '3.0', 9.8],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', '3.1', 6.1],
    ['CVSS:3.1/AV:L/AC:L/PR:N/UI:R/S:U/C:N/I:N/A:H', '3.1', 5.5],
    ['CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:L', '3.1', 5.6],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N', '3.1', 0],
    ['CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', '4.0', 9.3],
    ['CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:H/SI:H/SA:H', '4.0', 10],
    ['CVSS:4.0/AV:L/AC:L/AT:N/PR:L/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', '4.0', 8.5],
    ['CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:P/VC:N/VI:N/VA:N/SC:L/SI:L/SA:N', '4.0', 5.3],
    ['CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', '4.0', 0],
  ])('%s → %s %s', (vector, version, score) => {
    expect(scoreVector(vector)).toEqual({ version, score });
  });

  it.each([
    ['partial vector', 'CVSS:3.1/AV:N/AC:L'],
    ['metric twice', 'CVSS:3.1/AV:N/AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
    ['illegal value', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:Q'],
    [
      'v4 metrics under a v3 prefix',
      'CVSS:3.1/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N',
    ],
    ['CVSS v2 (not scored)', 'AV:N/AC:L/Au:N/C:P/I:P/A:P'],
    ['unknown version', 'CVSS:5.0/AV:N'],
    ['garbage', '////'],
    ['empty', ''],
    ['huge', `CVSS:3.1/${'AV:N/'.repeat(500)}`],
  ])('%s → not scored', (_label, vector) => {
    expect(scoreVector(vector)).toBeNull();
  });

  it('CVSS_V2 entries are kept but not scored', () => {
    expect(scoreSeverityEntry('CVSS_V2', 'AV:N/AC:L/Au:N/C:P/I:P/A:P')).toEqual({
      type: 'CVSS_V2',
      vector: 'AV:N/AC:L/Au:N/C:P/I:P/A:P',
      version: null,
      score: null,
      rating: null,
    });
  });
});

describe('ratings', () => {
  it.each([
    [0, null],
    [0.1, 'low'],
    [3.9, 'low'],
    [4.0, 'medium'],
    [6.9, 'medium'],
    [7.0, 'high'],
    [8.9, 'high'],
    [9.0, 'critical'],
    [10, 'critical'],
  ])('score %s → %s', (score, rating) => {
    expect(ratingFromScore(score)).toBe(rating);
  });

  it.each([
    ['LOW', 'low'],
    ['MODERATE', 'medium'],
    ['medium', 'medium'],
    ['HIGH', 'high'],
    [' CRITICAL ', 'critical'],
    ['UNKNOWN', null],
    [7.5, null],
    [null, null],
  ])('database severity %s → %s', (value, rating) => {
    expect(ratingFromDatabase(value)).toBe(rating);
  });
});

describe('effective severity', () => {
  const v3 = scoreSeverityEntry('CVSS_V3', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H');
  const v3low = scoreSeverityEntry('CVSS_V3', 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:L');
  const v4 = scoreSeverityEntry(
    'CVSS_V4',
    'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:P/VC:N/VI:N/VA:N/SC:L/SI:L/SA:N',
  );
  const broken: CvssScore = scoreSeverityEntry('CVSS_V3', 'CVSS:3.1/AV:N');

  it.each<[string, CvssScore[], Parameters<typeof effectiveSeverity>[1], Partial<Severity>]>([
    [
      'v4 beats v3 and the database',
      [v3, v4],
      'critical',
      { source: 'cvss_v4', score: 5.3, rating: 'medium' },
    ],
    [
      'highest v3 when several',
      [v3low, v3],
      null,
      { source: 'cvss_v3', score: 9.8, rating: 'critical' },
    ],
    [
      'database when no vector scores',
      [broken],
      'high',
      { source: 'database', score: null, rating: 'high' },
    ],
    ['none at all', [], null, { source: 'none', score: null, rating: null, vector: null }],
  ])('%s', (_label, cvss, database, expected) => {
    expect(effectiveSeverity(cvss, database)).toMatchObject(expected);
  });

  it.each<[string, Record<string, unknown> | null, number | null]>([
    ['RubySec cvss_v3', { cvss_v2: 5, cvss_v3: 7.5, cvss_v4: null }, 7.5],
    ['RubySec cvss_v4 first', { cvss_v3: 7.5, cvss_v4: 8.7 }, 8.7],
    ['Node.js WG cvss_score', { cvss_score: 4.3 }, 4.3],
    ['out of range', { cvss_v3: 11 }, null],
    ['a string is no score', { cvss_v3: '7.5' }, null],
    ['nothing', null, null],
  ])('database numeric score: %s', (_label, specific, expected) => {
    expect(databaseScore(specific)).toBe(expected);
  });

  it('a database numeric score rates by the CVSS bands, after vectors and the database label', () => {
    expect(effectiveSeverity([], null, 9.1)).toEqual({
      source: 'database',
      score: 9.1,
      rating: 'critical',
      vector: null,
    });
    expect(effectiveSeverity([], 'medium', 9.1)).toMatchObject({ rating: 'medium', score: 9.1 });
    expect(effectiveSeverity([v3low], 'critical', 9.1)).toMatchObject({
      source: 'cvss_v3',
      score: 5.6,
    });
  });

  it('maxSeverity orders by rating, then score', () => {
    const high: Severity = { source: 'database', score: null, rating: 'high', vector: null };
    const medium: Severity = { source: 'cvss_v3', score: 6.9, rating: 'medium', vector: 'x' };
    const high8: Severity = { source: 'cvss_v3', score: 8.1, rating: 'high', vector: 'y' };
    expect(maxSeverity(medium, high)).toBe(high);
    expect(maxSeverity(high, high8)).toBe(high8);
  });
});
