import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Ecosystem } from '../../ecosystems/types';
import { AdvisoryIndex, affectsVersion } from './match';
import { parseOsvRecord, parseOsvText } from './parse';
import type { Advisory, DependencyQuery } from './types';

const FIXTURES = join(import.meta.dirname, '__fixtures__');

function fixture(name: string): Advisory {
  return parseOsvText(readFileSync(join(FIXTURES, name), 'utf8'), name).advisories[0]!;
}

/** One advisory with one affected entry. */
function record(
  ecosystem: string,
  name: string,
  ranges: Array<{ type: string; events: object[] }>,
  versions?: string[],
  extra: Record<string, unknown> = {},
): Advisory {
  const result = parseOsvRecord({
    id: 'OSV-TEST-1',
    modified: '2024-01-01T00:00:00Z',
    affected: [{ package: { ecosystem, name }, ranges, ...(versions ? { versions } : {}) }],
    ...extra,
  });
  if (!result.ok) throw new Error(result.reasons.join('; '));
  return result.advisory;
}

function affects(advisory: Advisory, version: string): boolean {
  return affectsVersion(advisory, advisory.affected[0]!, version);
}

const eco = (type: string, ...events: object[]) => [{ type, events }];

describe('OSV evaluation, table by scenario', () => {
  it.each<[string, Advisory, Array<[string, boolean]>]>([
    [
      'npm: introduced "0" / fixed — the fixed version itself is safe',
      record('npm', 'lodash', eco('ECOSYSTEM', { introduced: '0' }, { fixed: '4.17.12' })),
      [
        ['0.0.1', true],
        ['4.17.11', true],
        ['4.17.12-beta.1', true],
        ['4.17.12', false],
        ['5.0.0', false],
      ],
    ],
    [
      'npm: last_affected is inclusive',
      record('npm', 'x', eco('ECOSYSTEM', { introduced: '1.0.0' }, { last_affected: '1.4.2' })),
      [
        ['0.9.9', false],
        ['1.0.0', true],
        ['1.4.2', true],
        ['1.4.3', false],
      ],
    ],
    [
      'npm: events out of order are sorted before walking (two windows)',
      record(
        'npm',
        'x',
        eco(
          'SEMVER',
          { fixed: '2.3.1' },
          { introduced: '2.0.0' },
          { fixed: '1.2.0' },
          { introduced: '0' },
        ),
      ),
      [
        ['1.1.9', true],
        ['1.2.0', false],
        ['1.9.9', false],
        ['2.0.0', true],
        ['2.3.0', true],
        ['2.3.1', false],
      ],
    ],
    [
      'npm: open range (no fix)',
      record('npm', 'x', eco('ECOSYSTEM', { introduced: '3.0.0' })),
      [
        ['2.9.9', false],
        ['3.0.0', true],
        ['99.0.0', true],
      ],
    ],
    [
      'npm: partial bound "1.0" read as 1.0.0 (as npm does)',
      record('npm', 'x', eco('ECOSYSTEM', { introduced: '1.0' }, { fixed: '3.1.1' })),
      [
        ['0.9.0', false],
        ['1.0.0', true],
        ['3.1.0', true],
        ['3.1.1', false],
      ],
    ],
    [
      'npm: listed versions match even outside every range; invalid versions only when listed',
      record('npm', 'x', eco('ECOSYSTEM', { introduced: '2.0.0' }, { fixed: '2.1.0' }), [
        '1.0.0',
        'not-a-version',
      ]),
      [
        ['1.0.0', true],
        ['1.0.1', false],
        ['2.0.5', true],
        ['not-a-version', true],
        ['also-bad', false],
      ],
    ],
    [
      'listed versions match equal spellings in the ecosystem ordering (PEP 440 1.0 == 1.0.0)',
      record('PyPI', 'x', [], ['1.0', '2.1rc1']),
      [
        ['1.0', true],
        ['1.0.0', true],
        ['2.1.0rc1', true],
        ['2.1', false],
        ['1.0.1', false],
        // From the third other spelling on, the sorted list answers (the first two by a pass).
        ['1.0.0.0', true],
        ['2.1rc1.post0', false],
      ],
    ],
    [
      'listed Go versions match with the leading v',
      record('Go', 'example.com/m', [], ['1.2.3']),
      [
        ['v1.2.3', true],
        ['1.2.3', true],
        ['v1.2.4', false],
      ],
    ],
    [
      'limit: versions at or above every limit are out',
      record('npm', 'x', eco('SEMVER', { introduced: '1.0.0' }, { limit: '1.5.0' })),
      [
        ['1.4.9', true],
        ['1.5.0', false],
        ['2.0.0', false],
      ],
    ],
    [
      'GIT ranges count only through listed versions',
      record(
        'PyPI',
        'x',
        [{ type: 'GIT', events: [{ introduced: '0' }, { fixed: 'abc1234' }] }],
        ['1.0'],
      ),
      [
        ['1.0', true],
        ['0.5', false],
        ['abc1234', false],
      ],
    ],
    [
      'PyPI: PEP 440 ordering (pre-release < release < post-release)',
      record('PyPI', 'Django', eco('ECOSYSTEM', { introduced: '4.2' }, { fixed: '4.2.8' })),
      [
        ['4.2rc1', false],
        ['4.2', true],
        ['4.2.0', true],
        ['4.2.7.post1', true],
        ['4.2.8', false],
        ['4.2.8.post1', false],
      ],
    ],
    [
      'Maven: Maven ordering (1.0-alpha < 1.0 < 1.0.1; 1.10 > 1.9)',
      record(
        'Maven',
        'org.example:lib',
        eco('ECOSYSTEM', { introduced: '1.0' }, { fixed: '1.10' }),
      ),
      [
        ['1.0-alpha-1', false],
        ['1.0', true],
        ['1.9.9', true],
        ['1.10', false],
        ['1.10.0', false],
      ],
    ],
    [
      'Go: SEMVER bounds without "v" match go.mod versions with "v", pseudo-versions included',
      record(
        'Go',
        'github.com/example/web',
        eco('SEMVER', { introduced: '0' }, { fixed: '1.6.0' }),
      ),
      [
        ['v1.5.9', true],
        ['1.5.9', true],
        ['v0.0.0-20200101000000-abcdefabcdef', true],
        ['v1.6.0', false],
        ['v1.6.0+incompatible', false],
      ],
    ],
    [
      'crates.io: SEMVER with a 0.0.0-0 lower bound',
      record(
        'crates.io',
        'smallvec',
        eco('SEMVER', { introduced: '0.0.0-0' }, { fixed: '0.6.14' }),
      ),
      [
        ['0.6.13', true],
        ['0.6.14', false],
        ['1.0.0', false],
      ],
    ],
    [
      'RubyGems: gem ordering (pre-releases sort before releases)',
      record('RubyGems', 'rack', eco('ECOSYSTEM', { introduced: '2.0.0' }, { fixed: '2.0.9.1' })),
      [
        ['2.0.0.rc1', false],
        ['2.0.0', true],
        ['2.0.9', true],
        ['2.0.9.1', false],
      ],
    ],
    [
      'Packagist: last_affected and a second window',
      fixture('packagist-last-affected.json'),
      [
        ['3.9.9', false],
        ['4.0.0', true],
        ['4.4.9', true],
        ['4.4.10', false],
        ['5.1.1', true],
        ['5.1.2', false],
      ],
    ],
    [
      'NuGet: NuGet ordering (case-insensitive pre-release labels)',
      record(
        'NuGet',
        'Newtonsoft.Json',
        eco('ECOSYSTEM', { introduced: '0' }, { fixed: '13.0.1' }),
      ),
      [
        ['12.0.3', true],
        ['13.0.1-BETA1', true],
        ['13.0.1', false],
      ],
    ],
  ])('%s', (_label, advisory, cases) => {
    for (const [version, expected] of cases) {
      expect([version, affects(advisory, version)]).toEqual([version, expected]);
    }
  });
});

describe('never matched', () => {
  it('withdrawn advisories', () => {
    const withdrawn = fixture('rustsec-withdrawn.json');
    expect(affects(withdrawn, '0.4.1')).toBe(false);
    const index = new AdvisoryIndex([withdrawn]);
    expect(
      index.match({
        ecosystem: 'Cargo',
        name: 'example-cell',
        version: '0.4.1',
        resolution: 'resolved',
      }),
    ).toEqual([]);
    expect(
      index.match({
        ecosystem: 'Cargo',
        name: 'example-cell',
        version: null,
        resolution: 'unpinned',
      }),
    ).toEqual([]);
  });

  it('unknown ecosystems (kept, not indexed)', () => {
    const debian = fixture('osv-unknown-ecosystem-debian.json');
    expect(affects(debian, '3.0.0')).toBe(false);
    expect(new AdvisoryIndex([debian]).has('npm', 'openssl')).toBe(false);
  });

  it('records with no vulnerable version, even for unpinned dependencies', () => {
    const none = fixture('rubysec-no-vulnerable-version.json');
    const index = new AdvisoryIndex([none]);
    expect(index.has('RubyGems', 'example-gem')).toBe(true);
    for (const resolution of ['resolved', 'declared', 'unpinned'] as const) {
      expect(
        index.match({ ecosystem: 'RubyGems', name: 'example-gem', version: '1.0.0', resolution }),
      ).toEqual([]);
    }
  });

  it('a range with a bound that is no version in its ordering is skipped and reported', () => {
    const bad = record(
      'npm',
      'protobufjs',
      eco('ECOSYSTEM', { introduced: '6.10.0' }, { fixed: '7.2.4, 6.11.4' }),
    );
    // Evaluated once before indexing: the compiled form is cached, the report must not be lost.
    expect(affects(bad, '6.10.1')).toBe(false);
    const index = new AdvisoryIndex([bad]);
    expect(index.skippedRanges).toEqual([
      {
        advisoryId: 'OSV-TEST-1',
        ecosystem: 'npm',
        name: 'protobufjs',
        reason: 'ECOSYSTEM range skipped: fixed "7.2.4, 6.11.4" is not a npm version',
      },
    ]);
    expect(
      index.match({
        ecosystem: 'npm',
        name: 'protobufjs',
        version: '6.10.1',
        resolution: 'resolved',
      }),
    ).toEqual([]);
  });
});

describe('the index', () => {
  const advisories = [
    fixture('go-vulndb-semver-two-ranges.json'),
    fixture('pypa-git-range-and-ecosystem-range.json'),
    fixture('ghsa-maven-enumerated-versions.json'),
    fixture('ghsa-npm-malware-empty-fixed.json'),
    fixture('packagist-last-affected.json'),
  ];
  const index = new AdvisoryIndex(advisories);
  const q = (
    ecosystem: Ecosystem,
    name: string,
    version: string | null,
    resolution: DependencyQuery['resolution'] = 'resolved',
  ) =>
    index
      .match({ ecosystem, name, version, resolution })
      .map((m) => [m.advisory.id, m.status, m.fixedVersions]);

  it('keys by (ecosystem, normalised name): the same name in another ecosystem never matches', () => {
    expect(q('Go', 'github.com/example/web', 'v1.7.1')).toEqual([
      ['GO-2024-2901', 'affected', ['1.6.0', '1.7.2']],
    ]);
    expect(q('npm', 'github.com/example/web', '1.7.1')).toEqual([]);
    expect(q('PyPI', 'flask-session-helper', '0.8.2')).toEqual([
      ['PYSEC-2023-301', 'affected', ['0.9.0']],
    ]);
    // Names are compared normalised: extractors normalise the same way the parser does.
    expect(q('PyPI', 'Flask_Session_Helper', '0.8.2')).toEqual([]);
    expect(index.size).toBe(5);
  });

  it('GHSA malware with an empty fixed matches every version', () => {
    expect(q('npm', 'cal_example', '0.0.1')).toEqual([['GHSA-226w-6hhj-0000', 'affected', []]]);
    expect(q('npm', 'cal_example', '9.9.9')).toEqual([['GHSA-226w-6hhj-0000', 'affected', []]]);
  });

  it('unpinned dependencies are possibly affected, never affected', () => {
    expect(q('Maven', 'org.example:example-parser', null, 'unpinned')).toEqual([
      ['GHSA-9x4m-2c3w-7q5r', 'possibly_affected', ['3.25.0']],
    ]);
  });

  it.each<[string, Ecosystem, string, string, boolean]>([
    ['Go range above every fix', 'Go', 'github.com/example/web', '>=1.8.0', false],
    ['npm caret starting inside the window', 'npm', 'cal_example', '^1.0.0', true],
    ['Go range reaching into the 1.7 window', 'Go', 'github.com/example/web', '>=1.7.0', true],
    ['PyPI range starting at the fix', 'PyPI', 'flask-session-helper', '>=0.9.0', false],
    ['PyPI range starting below the fix', 'PyPI', 'flask-session-helper', '>=0.8', true],
    ['PyPI upper-bound-only range reaches below', 'PyPI', 'flask-session-helper', '<2.0', true],
    [
      'Maven soft requirement above the fix',
      'Maven',
      'org.example:example-parser',
      '3.26.0',
      false,
    ],
    [
      'Maven soft requirement inside the window',
      'Maven',
      'org.example:example-parser',
      '3.24.0',
      true,
    ],
    ['Maven range above the fix', 'Maven', 'org.example:example-parser', '[3.25.0,4.0)', false],
    ['Maven range open below', 'Maven', 'org.example:example-parser', '(,4.0)', true],
    [
      'Maven union never proven clear',
      'Maven',
      'org.example:example-parser',
      '[3.25.0,4.0),[5.0,)',
      true,
    ],
    [
      'PyPI bounded both ways above the fix',
      'PyPI',
      'flask-session-helper',
      '>=0.9.1,<=2.0',
      false,
    ],
    ['PyPI exclusion only', 'PyPI', 'flask-session-helper', '!=0.5', true],
    ['PyPI prefix wildcard above the fix', 'PyPI', 'flask-session-helper', '==1.0.*', false],
    ['PyPI prefix wildcard inside the window', 'PyPI', 'flask-session-helper', '==0.8.*', true],
    ['a bare wildcard reaches everything', 'PyPI', 'flask-session-helper', '*', true],
    ['PyPI compatible release above the fix', 'PyPI', 'flask-session-helper', '~=1.0', false],
    ['Composer union above both windows', 'Composer', 'example/framework', '^5.2 || ^6.0', false],
    [
      'Composer union with one alternative inside',
      'Composer',
      'example/framework',
      '^4.4 || ^6.0',
      true,
    ],
    ['Composer single-bar union', 'Composer', 'example/framework', '^4.0|^6.0', true],
    [
      'Composer above last_affected but inside the 5.x window',
      'Composer',
      'example/framework',
      '>=4.5,<5.1',
      true,
    ],
  ])('declared: %s → possibly affected %s', (_label, ecosystem, name, spec, expected) => {
    const matches = index.match({ ecosystem, name, version: spec, resolution: 'declared' });
    expect(matches.every((m) => m.status === 'possibly_affected')).toBe(true);
    expect(matches.length > 0).toBe(expected);
  });
});
