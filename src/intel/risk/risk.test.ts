import { describe, expect, test } from 'vitest';
import { getEcosystem } from '../../ecosystems/ecosystem-list';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { type RegistryFacts, type RiskInput, riskIndicators, type UsageFact } from './indicators';
import { editDistance, popularNames, typosquatSuspicion } from './typosquat';

const now = new Date('2026-11-01T12:00:00Z');

function registry(overrides: Partial<RegistryFacts> = {}): RegistryFacts {
  return {
    source: 'npm registry',
    fetchedAt: new Date('2026-11-01T00:00:00Z'),
    latestStable: '2.0.0',
    newestRelease: { version: '2.0.0', publishedAt: new Date('2026-06-01T00:00:00Z') },
    lastReleaseAt: new Date('2026-06-01T00:00:00Z'),
    maintainers: ['alice', 'bob'],
    latestMaintainerChange: null,
    deprecated: null,
    installScripts: [],
    licence: 'MIT',
    yankedVersions: new Set(),
    ...overrides,
  };
}

function use(overrides: Partial<UsageFact> = {}): UsageFact {
  return {
    repositoryId: '01900000-0000-7000-8000-000000000001',
    repositoryName: 'web',
    version: '2.0.0',
    resolution: 'resolved',
    source: { kind: 'registry' },
    file: 'package-lock.json',
    observedAt: new Date('2026-10-31T00:00:00Z'),
    ...overrides,
  };
}

function input(overrides: Partial<RiskInput> = {}): RiskInput {
  return {
    ecosystem: 'npm',
    name: 'solid-package-name',
    registry: registry(),
    usage: [use()],
    now,
    settings: { recentlyPublishedHours: 72, unmaintainedAfterDays: 730 },
    ...overrides,
  };
}

const kinds = (i: RiskInput) => riskIndicators(i).map((r) => r.kind);

describe('riskIndicators', () => {
  test('a clean package has none', () => {
    expect(riskIndicators(input())).toEqual([]);
  });

  test.each([
    ['typosquat', input({ name: 'lodahs' })],
    ['typosquat', input({ name: 'cross_env' })],
    ['install-scripts', input({ registry: registry({ installScripts: ['postinstall'] }) })],
    [
      'new-maintainer',
      input({
        registry: registry({
          latestMaintainerChange: {
            version: '2.0.0',
            previousVersion: '1.9.0',
            added: ['mallory'],
          },
        }),
      }),
    ],
    [
      'recently-published',
      input({
        registry: registry({
          newestRelease: { version: '2.0.1', publishedAt: new Date('2026-10-31T00:00:00Z') },
        }),
      }),
    ],
    [
      'unmaintained',
      input({ registry: registry({ lastReleaseAt: new Date('2024-10-01T00:00:00Z') }) }),
    ],
    ['single-maintainer', input({ registry: registry({ maintainers: ['solo'] }) })],
    ['deprecated', input({ registry: registry({ deprecated: 'use other-thing instead' }) })],
    ['yanked', input({ registry: registry({ yankedVersions: new Set(['2.0.0']) }) })],
    [
      'git-or-url-dependency',
      input({
        usage: [use({ source: { kind: 'git', url: 'https://example.test/x.git', ref: 'main' } })],
      }),
    ],
    [
      'git-or-url-dependency',
      input({ usage: [use({ source: { kind: 'url', url: 'https://example.test/x.tgz' } })] }),
    ],
    [
      'floating-range-without-lockfile',
      input({ usage: [use({ version: '^2.0.0', resolution: 'declared' })] }),
    ],
    [
      'floating-range-without-lockfile',
      input({ usage: [use({ version: null, resolution: 'unpinned' })] }),
    ],
    ['no-licence', input({ registry: registry({ licence: null }) })],
    ['flagged-licence', input({ registry: registry({ licence: 'SSPL-1.0' }) })],
  ] as const)('%s', (kind, given) => {
    const found = riskIndicators(given);
    expect(found.map((r) => r.kind)).toEqual([kind]);
    const [indicator] = found;
    expect(indicator?.source).toBeTruthy();
    expect(Number.isNaN(Date.parse(indicator?.observedAtUtc ?? ''))).toBe(false);
    expect(Object.keys(indicator?.evidence ?? {}).length).toBeGreaterThan(0);
  });

  test('boundaries: 72 hours and the unmaintained threshold', () => {
    const at = (hours: number) =>
      registry({
        newestRelease: {
          version: '2.0.1',
          publishedAt: new Date(now.getTime() - hours * 3_600_000),
        },
      });
    expect(kinds(input({ registry: at(71.9) }))).toContain('recently-published');
    expect(kinds(input({ registry: at(72) }))).not.toContain('recently-published');
    const days = (d: number) =>
      registry({ lastReleaseAt: new Date(now.getTime() - d * 86_400_000) });
    expect(kinds(input({ registry: days(730) }))).toContain('unmaintained');
    expect(kinds(input({ registry: days(729) }))).not.toContain('unmaintained');
  });

  test('registry facts unknown: only usage and name indicators', () => {
    expect(
      kinds(
        input({
          name: 'expresss',
          registry: null,
          usage: [use({ resolution: 'declared', version: '*' })],
        }),
      ),
    ).toEqual(['typosquat', 'floating-range-without-lockfile']);
  });

  test('a path dependency is neither outside-registry nor floating', () => {
    expect(
      kinds(
        input({
          usage: [use({ source: { kind: 'path', path: '../lib' }, resolution: 'declared' })],
        }),
      ),
    ).toEqual([]);
  });
});

describe('typosquatSuspicion', () => {
  test.each([
    ['npm', 'lodash', null],
    ['npm', 'lodahs', 'lodash'],
    ['npm', 'expresss', 'express'],
    ['npm', 'reacct', 'react'],
    ['npm', 'cross_env', 'cross-env'],
    ['npm', 'left-pad', null],
    ['npm', 'abc', null],
    ['npm', 'completely-different', null],
    ['PyPI', 'reqeusts', 'requests'],
    ['PyPI', 'python-dateutils', 'python-dateutil'],
    ['PyPI', 'djang0', 'django'],
    ['Cargo', 'serde_jsn', 'serde_json'],
    ['RubyGems', 'rials', 'rails'],
    ['Go', 'github.com/sirupsen/logruss', 'github.com/sirupsen/logrus'],
    ['NuGet', 'newtonsoft.jsom', 'newtonsoft.json'],
    ['Docker', 'ngnix', 'nginx'],
    ['Composer', 'laravel/framwork', 'laravel/framework'],
    ['Maven', 'com.google.guava:guave', 'com.google.guava:guava'],
  ] as const)('%s %s → %s', (ecosystem, name, similarTo) => {
    expect(typosquatSuspicion(ecosystem, name)?.similarTo ?? null).toBe(similarTo);
  });

  test('every ecosystem ships a versioned list of names in its own normal form', () => {
    for (const ecosystem of ECOSYSTEMS) {
      const list = popularNames(ecosystem);
      expect(list.names.length, ecosystem).toBeGreaterThanOrEqual(30);
      expect(list.version).toMatch(/^\d{4}-\d{2}-\d{2}\.\d+$/);
      const normalise = getEcosystem(ecosystem).normaliseName;
      for (const name of list.names) expect(normalise(name), `${ecosystem} ${name}`).toBe(name);
    }
  });

  test.each([
    ['kitten', 'sitting', 3],
    ['abcd', 'abdc', 1],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['same', 'same', 0],
  ])('editDistance(%s, %s) = %i', (a, b, d) => {
    expect(editDistance(a, b, 5)).toBe(d);
  });

  test('caps the distance at max + 1', () => {
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
    expect(editDistance('abcdef', 'ab', 2)).toBe(3);
  });

  test('answers a repeated name the same (remembered per ecosystem)', () => {
    const first = typosquatSuspicion('npm', 'expresss');
    expect(first?.similarTo).toBe('express');
    expect(typosquatSuspicion('npm', 'expresss')).toEqual(first);
  });
});
