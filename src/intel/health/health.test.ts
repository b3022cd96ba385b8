import { describe, expect, test } from 'vitest';
import { licenceFlag } from '../risk/licences';
import { computeSignals, type HealthFacts, scoreSignals } from './score';
import { checkWeights, DEFAULT_WEIGHTS, SIGNAL_KEYS, weightsFromStored } from './weights';

const now = new Date('2026-11-01T00:00:00Z');

function facts(overrides: Partial<HealthFacts> = {}): HealthFacts {
  return {
    registrySource: 'npm registry',
    observedAt: new Date('2026-10-31T12:00:00Z'),
    lastReleaseAt: new Date('2026-10-01T00:00:00Z'),
    releasesLastYear: 6,
    cadenceDays: 40,
    versionCount: 80,
    maintainers: ['alice', 'bob', 'carol'],
    latestMaintainerChange: null,
    packageDeprecated: null,
    latestStableDeprecated: null,
    vulnerabilities: { known: 0, affectingLatest: 0, observedAt: new Date('2026-10-30T00:00:00Z') },
    licence: 'MIT',
    repositoryUrl: 'https://example.test/acme/thing',
    installScripts: [],
    downloads: { count: 2_000_000, period: 'last-week' },
    ...overrides,
  };
}

describe('computeSignals', () => {
  test('a healthy package scores 100 with every signal at 1', () => {
    const signals = computeSignals(facts(), now);
    expect(signals.map((s) => s.key)).toEqual([...SIGNAL_KEYS]);
    for (const signal of signals) expect(signal.score, signal.key).toBe(1);
    expect(scoreSignals(signals).score).toBe(100);
  });

  test('each signal carries value, source and time', () => {
    const signals = computeSignals(facts(), now);
    const recency = signals.find((s) => s.key === 'maintenanceRecency');
    expect(recency).toMatchObject({
      value: { daysSinceLastRelease: 31, lastReleaseAtUtc: '2026-10-01T00:00:00.000Z' },
      source: 'npm registry',
      observedAtUtc: '2026-10-31T12:00:00.000Z',
    });
    expect(signals.find((s) => s.key === 'vulnerabilities')).toMatchObject({
      source: 'OSV advisories',
      observedAtUtc: '2026-10-30T00:00:00.000Z',
    });
  });

  test.each([
    [
      'stale for a year',
      { lastReleaseAt: new Date('2025-11-01T00:00:00Z') },
      'maintenanceRecency',
      0.57,
    ],
    [
      'stale for three years',
      { lastReleaseAt: new Date('2023-11-01T00:00:00Z') },
      'maintenanceRecency',
      0,
    ],
    ['two releases a year', { releasesLastYear: 2 }, 'releaseCadence', 0.5],
    ['single maintainer', { maintainers: ['solo'] }, 'maintainers', 0.5],
    [
      'a newcomer on the latest release',
      {
        maintainers: ['a', 'b', 'mallory'],
        latestMaintainerChange: { version: '2.0.0', added: ['mallory'], removed: [] },
      },
      'maintainers',
      0.7,
    ],
    ['deprecated', { packageDeprecated: 'use other' }, 'deprecation', 0],
    ['latest stable deprecated', { latestStableDeprecated: 'broken' }, 'deprecation', 0],
    [
      'an advisory affecting the latest',
      { vulnerabilities: { known: 3, affectingLatest: 1, observedAt: now } },
      'vulnerabilities',
      0,
    ],
    [
      'historic advisories only',
      { vulnerabilities: { known: 4, affectingLatest: 0, observedAt: now } },
      'vulnerabilities',
      0.8,
    ],
    ['no licence', { licence: null }, 'licence', 0],
    ['AGPL', { licence: 'AGPL-3.0-only' }, 'licence', 0.3],
    ['GPL', { licence: 'GPL-3.0-or-later' }, 'licence', 0.7],
    ['dual MIT OR AGPL', { licence: 'MIT OR AGPL-3.0-only' }, 'licence', 1],
    ['no repository', { repositoryUrl: null }, 'repository', 0],
    ['postinstall', { installScripts: ['postinstall'] }, 'installScripts', 0],
    [
      '1,000 weekly downloads',
      { downloads: { count: 999, period: 'last-week' as const } },
      'popularity',
      0.5,
    ],
    [
      '10,000 total downloads',
      { downloads: { count: 9999, period: 'total' as const } },
      'popularity',
      0.5,
    ],
  ] as const)('%s → %s %s', (_name, override, key, expected) => {
    const signal = computeSignals(facts(override as Partial<HealthFacts>), now).find(
      (s) => s.key === key,
    );
    expect(signal?.score).toBeCloseTo(expected, 2);
  });

  test('unknown signals are null and their weight is spread over the known ones', () => {
    const signals = computeSignals(
      facts({ downloads: null, installScripts: null, vulnerabilities: null }),
      now,
    );
    const unknown = signals.filter((s) => s.score === null).map((s) => s.key);
    expect(unknown).toEqual(['vulnerabilities', 'installScripts', 'popularity']);
    const scored = scoreSignals(signals);
    expect(scored.score).toBe(100);
    expect(scored.signals.find((s) => s.key === 'popularity')?.points).toBeNull();
    // maintenanceRecency: 20 of the 70 known weight points → 28.57 of 100.
    expect(scored.signals.find((s) => s.key === 'maintenanceRecency')?.points).toBeCloseTo(
      28.57,
      2,
    );
  });
});

describe('scoreSignals with custom weights', () => {
  const signals = computeSignals(
    facts({ licence: null, repositoryUrl: null, maintainers: ['solo'] }),
    now,
  );

  test('default weights', () => {
    // 100 - licence 10 - repository 5 - half of maintainers 10 = 80
    expect(scoreSignals(signals, DEFAULT_WEIGHTS).score).toBe(80);
  });

  test('all weight on licence gives 0; all weight on deprecation gives 100', () => {
    const zero = Object.fromEntries(SIGNAL_KEYS.map((k) => [k, 0])) as typeof DEFAULT_WEIGHTS;
    expect(scoreSignals(signals, { ...zero, licence: 100 }).score).toBe(0);
    expect(scoreSignals(signals, { ...zero, deprecation: 100 }).score).toBe(100);
    expect(scoreSignals(signals, { ...zero, maintainers: 50, deprecation: 50 }).score).toBe(75);
  });

  test('no known signal with weight gives a null score', () => {
    const zero = Object.fromEntries(SIGNAL_KEYS.map((k) => [k, 0])) as typeof DEFAULT_WEIGHTS;
    const unknown = computeSignals(facts({ downloads: null }), now);
    expect(scoreSignals(unknown, { ...zero, popularity: 100 }).score).toBeNull();
  });
});

describe('checkWeights', () => {
  test('the defaults are valid and sum to 100', () => {
    expect(checkWeights(DEFAULT_WEIGHTS)).toEqual({ ok: true, weights: DEFAULT_WEIGHTS });
  });

  test('missing signals weigh 0', () => {
    const result = checkWeights({ deprecation: 60, vulnerabilities: 40 });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.weights.popularity).toBe(0);
  });

  test.each([
    [{ ...DEFAULT_WEIGHTS, popularity: 11 }, 'weights'],
    [{ ...DEFAULT_WEIGHTS, popularity: -10, deprecation: 35 }, 'popularity'],
    [{ ...DEFAULT_WEIGHTS, popularity: '10' }, 'popularity'],
    [{ ...DEFAULT_WEIGHTS, stars: 0 }, 'stars'],
    [{ deprecation: Number.NaN }, 'deprecation'],
    [[], ''],
    [null, ''],
    [{}, 'weights'],
  ])('%j is refused (errors.%s)', (input, field) => {
    const result = checkWeights(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors)).toContain(field);
  });

  test('fractions that sum to 100 are accepted', () => {
    expect(checkWeights({ deprecation: 33.3, licence: 33.3, repository: 33.4 }).ok).toBe(true);
  });

  test('stored garbage falls back to the defaults', () => {
    expect(weightsFromStored({ nope: 1 })).toEqual(DEFAULT_WEIGHTS);
  });
});

describe('licenceFlag', () => {
  test.each([
    ['MIT', null],
    ['Apache-2.0', null],
    ['AGPL-3.0-only', 'network-copyleft'],
    ['AGPL-3.0+', 'network-copyleft'],
    ['SSPL-1.0', 'source-available'],
    ['BUSL-1.1', 'source-available'],
    ['Elastic-2.0', 'source-available'],
    ['CC-BY-NC-4.0', 'non-commercial'],
    ['UNLICENSED', 'unlicensed'],
    ['SEE LICENSE IN LICENSE.md', 'unlicensed'],
    ['GPL-2.0-only', 'strong-copyleft'],
    ['LGPL-2.1-or-later', null],
    ['MIT OR AGPL-3.0-only', null],
    ['(AGPL-3.0-only OR SSPL-1.0)', 'source-available'],
    ['MIT AND AGPL-3.0-only', 'network-copyleft'],
    [null, null],
    ['', null],
  ])('%j → %j', (licence, flag) => {
    expect(licenceFlag(licence)).toBe(flag);
  });
});
