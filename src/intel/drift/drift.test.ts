import { describe, expect, test } from 'vitest';
import { getEcosystem } from '../../ecosystems/ecosystem-list';
import type { Ecosystem } from '../../ecosystems/types';
import {
  computeDependencyDrift,
  type PackageFacts,
  releaseComponents,
  totalDrift,
  type VersionFact,
} from './drift';

const now = new Date('2026-11-01T00:00:00Z');
const options = { now, endOfLifeAfterDays: 540 };

function v(version: string, date: string | null, extra: Partial<VersionFact> = {}): VersionFact {
  return {
    version,
    publishedAt: date ? new Date(`${date}T00:00:00Z`) : null,
    deprecated: null,
    yanked: false,
    prerelease: /-|rc|a\d|b\d/.test(version.replace(/^v/, '').slice(1)),
    ...extra,
  };
}

const npmFacts: PackageFacts = {
  latestStable: '3.1.0',
  deprecated: null,
  versions: [
    v('1.0.0', '2020-01-01'),
    v('1.0.1', '2020-02-01'),
    v('1.1.0', '2020-06-01'),
    v('1.2.0', '2021-01-01'),
    v('1.2.1', '2021-01-15'),
    v('1.2.2', '2021-02-01'),
    v('2.0.0', '2022-01-01'),
    v('2.1.0', '2022-06-01', { yanked: true }),
    v('2.2.0', '2023-01-01', { deprecated: 'critical bug, use 2.2.1' }),
    v('2.2.1', '2023-01-02'),
    v('3.0.0', '2024-01-01'),
    v('3.1.0', '2025-01-01'),
    v('4.0.0-beta.1', '2025-06-01', { prerelease: true }),
  ],
};

describe('releaseComponents', () => {
  test.each([
    ['1.2.3', [1, 2, 3]],
    ['v1.2.3', [1, 2, 3]],
    ['1.2', [1, 2, 0]],
    ['7', [7, 0, 0]],
    ['1!2.0.1', [2, 0, 1]],
    ['1.2.3-rc.1', [1, 2, 3]],
    ['v0.0.0-20200101000000-abcdefabcdef', [0, 0, 0]],
    ['latest', null],
    ['', null],
  ])('%s → %j', (version, expected) => {
    expect(releaseComponents(version)).toEqual(expected);
  });
});

describe('computeDependencyDrift (npm)', () => {
  const versioning = getEcosystem('npm').versioning;
  test.each([
    // used, resolution, libyear (days / 365.25), [major, minor, patch, versions]
    ['1.0.0', 'resolved', 5.002, [2, 2, 1, 10]],
    ['1.2.2', 'resolved', 3.915, [2, 0, 0, 5]],
    ['2.2.1', 'resolved', 1.999, [1, 0, 0, 2]],
    ['3.0.0', 'resolved', 1.002, [0, 1, 0, 1]],
    ['3.1.0', 'resolved', 0, [0, 0, 0, 0]],
    // A pre-release ahead of the newest stable is not behind.
    ['4.0.0-beta.1', 'resolved', 0, [0, 0, 0, 0]],
    // A range is compared at the highest release it allows.
    ['^1.0.0', 'declared', 3.915, [2, 0, 0, 5]],
    ['~2.2.0', 'declared', 1.999, [1, 0, 0, 2]],
  ] as const)('%s (%s) → libyear %s, behind %j', (used, resolution, libyear, behind) => {
    const drift = computeDependencyDrift(
      npmFacts,
      { version: used, resolution },
      versioning,
      options,
    );
    expect(drift.state).toBe('measured');
    expect(drift.libyear).toBe(libyear);
    expect(drift.behind).toEqual({
      major: behind[0],
      minor: behind[1],
      patch: behind[2],
      versions: behind[3],
    });
  });

  test('deprecated and yanked come from the used version', () => {
    const deprecated = computeDependencyDrift(
      npmFacts,
      { version: '2.2.0', resolution: 'resolved' },
      versioning,
      options,
    );
    expect(deprecated.deprecated).toBe(true);
    expect(deprecated.deprecationMessage).toBe('critical bug, use 2.2.1');
    expect(deprecated.yanked).toBe(false);
    const yanked = computeDependencyDrift(
      npmFacts,
      { version: '2.1.0', resolution: 'resolved' },
      versioning,
      options,
    );
    expect(yanked.yanked).toBe(true);
    expect(yanked.deprecated).toBe(false);
  });

  test('end-of-life: superseded major line idle for longer than the setting', () => {
    const one = computeDependencyDrift(
      npmFacts,
      { version: '1.2.2', resolution: 'resolved' },
      versioning,
      options,
    );
    expect(one.endOfLife).toBe(true);
    expect(one.endOfLifeReason).toContain('major line 1');
    // 3.x is the newest major: never end-of-life by the line rule.
    const three = computeDependencyDrift(
      npmFacts,
      { version: '3.0.0', resolution: 'resolved' },
      versioning,
      options,
    );
    expect(three.endOfLife).toBe(false);
    // 2.x last released 2023-01-02; with a 5-year setting it is not end-of-life yet.
    const two = computeDependencyDrift(
      npmFacts,
      { version: '2.2.1', resolution: 'resolved' },
      versioning,
      { now, endOfLifeAfterDays: 5 * 365 },
    );
    expect(two.endOfLife).toBe(false);
  });

  test('a deprecated package makes every version deprecated and end-of-life', () => {
    const facts = { ...npmFacts, deprecated: 'moved to @scope/thing' };
    const drift = computeDependencyDrift(
      facts,
      { version: '3.1.0', resolution: 'resolved' },
      versioning,
      options,
    );
    expect(drift).toMatchObject({ deprecated: true, endOfLife: true, libyear: 0 });
  });

  test.each([
    [null, 'unpinned'],
    ['', 'unpinned'],
    ['^9.0.0', 'declared'],
    ['not a version', 'resolved'],
  ] as const)('%j (%s) is unknown_version', (version, resolution) => {
    const drift = computeDependencyDrift(npmFacts, { version, resolution }, versioning, options);
    expect(drift.state).toBe('unknown_version');
    expect(drift.libyear).toBeNull();
  });

  test('a resolved version the registry no longer lists is unlisted, behind still counted', () => {
    const drift = computeDependencyDrift(
      npmFacts,
      { version: '1.3.0', resolution: 'resolved' },
      versioning,
      options,
    );
    expect(drift.unlisted).toBe(true);
    expect(drift.libyear).toBeNull();
    expect(drift.behind).toEqual({ major: 2, minor: 0, patch: 0, versions: 5 });
  });

  test('missing release times give a null libyear but counts', () => {
    const facts: PackageFacts = {
      latestStable: '2.0.0',
      deprecated: null,
      versions: [v('1.0.0', null), v('2.0.0', '2024-01-01')],
    };
    const drift = computeDependencyDrift(
      facts,
      { version: '1.0.0', resolution: 'resolved' },
      versioning,
      options,
    );
    expect(drift.libyear).toBeNull();
    expect(drift.behind?.major).toBe(1);
  });
});

describe('computeDependencyDrift uses each ecosystem versioning', () => {
  const cases: [Ecosystem, string[], string, [number, number, number]][] = [
    ['Go', ['v1.0.0', 'v1.1.0', 'v1.1.1', 'v2.0.0'], 'v1.0.0', [1, 1, 0]],
    ['PyPI', ['1.0', '1.0.post1', '1.1', '2.0'], '1.0', [1, 1, 0]],
    ['Maven', ['1.0', '1.0.1', '1.1', '2.0'], '1.0', [1, 1, 1]],
    ['RubyGems', ['1.0.0', '1.0.1', '1.1.0', '2.0.0'], '1.0.1', [1, 1, 0]],
    ['Cargo', ['0.1.0', '0.1.1', '0.2.0', '1.0.0'], '0.1.0', [1, 1, 1]],
    ['NuGet', ['1.0.0', '1.0.0.1', '1.2.0', '2.0.0'], '1.0.0', [1, 1, 0]],
  ];
  test.each(cases)('%s %j from %s → %j', (ecosystem, versions, used, [major, minor, patch]) => {
    const facts: PackageFacts = {
      latestStable: versions[versions.length - 1] ?? null,
      deprecated: null,
      versions: versions.map((version, i) => v(version, `202${i}-01-01`, { prerelease: false })),
    };
    const drift = computeDependencyDrift(
      facts,
      { version: used, resolution: 'resolved' },
      getEcosystem(ecosystem).versioning,
      options,
    );
    expect(drift.state).toBe('measured');
    expect([drift.behind?.major, drift.behind?.minor, drift.behind?.patch]).toEqual([
      major,
      minor,
      patch,
    ]);
    expect(drift.libyear).toBeGreaterThan(0);
  });
});

describe('totalDrift', () => {
  test('sums measured dependencies and counts pending ones', () => {
    const versioning = getEcosystem('npm').versioning;
    const a = computeDependencyDrift(
      npmFacts,
      { version: '1.0.0', resolution: 'resolved' },
      versioning,
      options,
    );
    const b = computeDependencyDrift(
      npmFacts,
      { version: '3.1.0', resolution: 'resolved' },
      versioning,
      options,
    );
    const c = computeDependencyDrift(
      npmFacts,
      { version: '2.1.0', resolution: 'resolved' },
      versioning,
      options,
    );
    const totals = totalDrift([a, b, c, 'pending', 'not_in_registry']);
    expect(totals).toMatchObject({
      dependencyCount: 5,
      measuredCount: 3,
      pendingCount: 1,
      outdatedCount: 2,
      majorBehind: 3,
      yankedCount: 1,
      endOfLifeCount: 2,
    });
    expect(totals.libyearTotal).toBeCloseTo(5.002 + (c.libyear ?? 0), 2);
  });
});
