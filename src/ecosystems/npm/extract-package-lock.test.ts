import { describe, expect, it } from 'vitest';
import { fixture, inputOf, type Row, rows } from '../../../test/support/npm-extract';
import { packageLockExtractor } from './extract-package-lock';

const extract = (path: string, text: string, files: Record<string, string> = {}) =>
  packageLockExtractor.extract(inputOf(path, text, files));

/** The project itself, reported first with scope `self` (the `""` entry or the v1 top level). */
const self = (name: string, version: string | null, line: number): Row => [
  name,
  version,
  'self',
  false,
  version === null ? 'unpinned' : 'resolved',
  line,
  [],
  'path .',
  version === null ? `pkg:npm/${name}` : `pkg:npm/${name}@${version}`,
];

const V1_NESTED: Row[] = [
  self('app', '1.0.0', 2),
  [
    '@scope/util',
    '2.0.0',
    'runtime',
    true,
    'resolved',
    7,
    [],
    'registry',
    'pkg:npm/%40scope/util@2.0.0',
  ],
  [
    'debug',
    '3.2.7',
    'runtime',
    false,
    'resolved',
    15,
    ['@scope/util'],
    'registry',
    'pkg:npm/debug@3.2.7',
  ],
  ['debug', '4.3.4', 'runtime', true, 'resolved', 25, [], 'registry', 'pkg:npm/debug@4.3.4'],
  ['fsevents', '2.3.3', 'optional', true, 'resolved', 33, [], 'registry', 'pkg:npm/fsevents@2.3.3'],
  [
    'git-dep',
    '0123abcd0123abcd0123abcd0123abcd0123abcd',
    'runtime',
    true,
    'resolved',
    39,
    [],
    'git git+https://github.com/user/git-dep.git#0123abcd0123abcd0123abcd0123abcd0123abcd',
    'pkg:npm/git-dep@0123abcd0123abcd0123abcd0123abcd0123abcd?vcs_url=git%2Bhttps%3A%2F%2Fgithub.com%2Fuser%2Fgit-dep.git',
  ],
  [
    'jest-mock',
    '29.7.0',
    'development',
    true,
    'resolved',
    43,
    [],
    'registry',
    'pkg:npm/jest-mock@29.7.0',
  ],
  [
    'local-lib',
    null,
    'runtime',
    true,
    'unpinned',
    52,
    [],
    'path ../local-lib',
    'pkg:npm/local-lib',
  ],
  [
    'ms',
    '2.1.2',
    'runtime',
    false,
    'resolved',
    55,
    ['debug', 'jest-mock'],
    'registry',
    'pkg:npm/ms@2.1.2',
  ],
  // An alias (`string-width-cjs` → `npm:string-width@4.2.3`) is reported as the real package.
  [
    'string-width',
    '4.2.3',
    'runtime',
    true,
    'resolved',
    60,
    [],
    'registry',
    'pkg:npm/string-width@4.2.3',
  ],
];

const V2: Row[] = [
  [
    'body-parser',
    '1.20.1',
    'runtime',
    false,
    'resolved',
    25,
    ['express'],
    'registry',
    'pkg:npm/body-parser@1.20.1',
  ],
  [
    'bytes',
    '3.1.2',
    'runtime',
    false,
    'resolved',
    33,
    ['body-parser'],
    'registry',
    'pkg:npm/bytes@3.1.2',
  ],
  ['express', '4.18.2', 'runtime', true, 'resolved', 38, [], 'registry', 'pkg:npm/express@4.18.2'],
  // Nested node_modules: express's own bytes, a second installed entry of the same name.
  [
    'bytes',
    '3.0.0',
    'runtime',
    false,
    'resolved',
    47,
    ['express'],
    'registry',
    'pkg:npm/bytes@3.0.0',
  ],
  ['fsevents', '2.3.3', 'optional', true, 'resolved', 52, [], 'registry', 'pkg:npm/fsevents@2.3.3'],
  // `peer: true` stays runtime.
  [
    'loose-envify',
    '1.4.0',
    'runtime',
    false,
    'resolved',
    58,
    ['react'],
    'registry',
    'pkg:npm/loose-envify@1.4.0',
  ],
  [
    'pg-boss',
    '10.3.2',
    'runtime',
    true,
    'resolved',
    64,
    [],
    'git git+ssh://git@github.com/acme/pg-boss.git#89b675b057ff7cec3ca2c434e4d3005c35a76bd9',
    'pkg:npm/pg-boss@10.3.2?vcs_url=git%2Bssh%3A%2F%2Fgit%40github.com%2Facme%2Fpg-boss.git',
  ],
  ['react', '18.2.0', 'runtime', true, 'resolved', 69, [], 'registry', 'pkg:npm/react@18.2.0'],
  [
    'strip-ansi',
    '6.0.1',
    'runtime',
    true,
    'resolved',
    78,
    [],
    'registry',
    'pkg:npm/strip-ansi@6.0.1',
  ],
  [
    'tarball-pkg',
    '0.3.0',
    'development',
    false,
    'resolved',
    84,
    ['typescript'],
    'url https://example.com/downloads/tarball-pkg-0.3.0.tgz',
    'pkg:npm/tarball-pkg@0.3.0?download_url=https%3A%2F%2Fexample.com%2Fdownloads%2Ftarball-pkg-0.3.0.tgz',
  ],
  [
    'typescript',
    '5.4.5',
    'development',
    true,
    'resolved',
    90,
    [],
    'registry',
    'pkg:npm/typescript@5.4.5',
  ],
  // `devOptional: true` → development.
  [
    'ws',
    '8.16.0',
    'development',
    false,
    'resolved',
    100,
    ['typescript'],
    'registry',
    'pkg:npm/ws@8.16.0',
  ],
];

const V3_WORKSPACES: Row[] = [
  // `link: true` entries are the workspaces: path sources, first-party, versioned by their folder.
  [
    '@acme/ui',
    '1.2.0',
    'runtime',
    true,
    'resolved',
    17,
    ['@acme/web'],
    'path packages/ui',
    'pkg:npm/%40acme/ui@1.2.0',
  ],
  [
    '@acme/web',
    null,
    'runtime',
    true,
    'unpinned',
    21,
    [],
    'path packages/web',
    'pkg:npm/%40acme/web',
  ],
  [
    'js-tokens',
    '4.0.0',
    'runtime',
    false,
    'resolved',
    25,
    ['loose-envify'],
    'registry',
    'pkg:npm/js-tokens@4.0.0',
  ],
  [
    'loose-envify',
    '1.4.0',
    'runtime',
    false,
    'resolved',
    30,
    ['react'],
    'registry',
    'pkg:npm/loose-envify@1.4.0',
  ],
  [
    'prettier',
    '3.2.5',
    'development',
    true,
    'resolved',
    38,
    [],
    'registry',
    'pkg:npm/prettier@3.2.5',
  ],
  [
    'react',
    '18.2.0',
    'runtime',
    true,
    'resolved',
    44,
    ['@acme/ui'],
    'registry',
    'pkg:npm/react@18.2.0',
  ],
  // Installed under the workspace folder, so only @acme/web resolves to it.
  [
    'react',
    '17.0.2',
    'runtime',
    true,
    'resolved',
    66,
    ['@acme/web'],
    'registry',
    'pkg:npm/react@17.0.2',
  ],
  [
    'object-assign',
    '4.1.1',
    'runtime',
    false,
    'resolved',
    75,
    ['react'],
    'registry',
    'pkg:npm/object-assign@4.1.1',
  ],
];

describe('npm/package-lock: scenarios', () => {
  it('v1-nested: walks nested dependencies, resolves requires upwards, direct from package.json', () => {
    const result = extract('app/package-lock.json', fixture('v1-nested.json'), {
      'app/package.json': fixture('v1-nested.package.json'),
    });
    expect(result.errors).toEqual([]);
    expect(rows(result.dependencies)).toEqual(V1_NESTED);
  });

  it('v1-nested without package.json: top-level entries nothing requires are the direct ones', () => {
    const result = extract('app/package-lock.json', fixture('v1-nested.json'));
    expect(
      result.dependencies.filter((d) => d.direct).map((d) => `${d.name}@${d.version}`),
    ).toEqual([
      '@scope/util@2.0.0',
      'debug@4.3.4',
      'fsevents@2.3.3',
      'git-dep@0123abcd0123abcd0123abcd0123abcd0123abcd',
      'jest-mock@29.7.0',
      'local-lib@null',
      'string-width@4.2.3',
    ]);
  });

  it('v2-with-dev-and-optional: prefers packages over the v1 mirror; dev/optional/devOptional/peer', () => {
    const result = extract('package-lock.json', fixture('v2-with-dev-and-optional.json'));
    expect(result.errors).toEqual([]);
    expect(rows(result.dependencies)).toEqual([self('service', '2.1.0', 7), ...V2]);
  });

  it('v3-workspaces: link entries are path sources, workspace folders are not packages', () => {
    const result = extract('package-lock.json', fixture('v3-workspaces.json'));
    expect(result.errors).toEqual([]);
    expect(rows(result.dependencies)).toEqual([self('monorepo', '0.0.0', 7), ...V3_WORKSPACES]);
  });

  it('shrinkwrap: npm-shrinkwrap.json is the same format', () => {
    const input = inputOf('tools/npm-shrinkwrap.json', fixture('shrinkwrap.json'));
    expect(packageLockExtractor.matches(input.path)).toBe(true);
    expect(packageLockExtractor.describe?.(input)).toBe('npm-shrinkwrap.json v3');
    expect(rows(packageLockExtractor.extract(input).dependencies)).toEqual([
      self('cli-tool', '3.0.0', 7),
      [
        'minimist',
        '1.2.8',
        'runtime',
        true,
        'resolved',
        14,
        [],
        'registry',
        'pkg:npm/minimist@1.2.8',
      ],
    ]);
  });

  it('truncated-lockfile: one whole-file error, the cut entry reported, complete entries kept', () => {
    const result = extract('package-lock.json', fixture('truncated-lockfile.json'));
    expect(result.errors).toHaveLength(2);
    expect(result.errors[0]?.line).toBeNull();
    expect(result.errors[0]?.message).toMatch(/^invalid JSON: .*\(line 43\)$/);
    expect(result.errors[1]).toEqual({
      line: 38,
      message: 'node_modules/express: entry is cut off; skipped',
    });
    expect(rows(result.dependencies)).toEqual([
      // The root entry survived, so directness is still known (express would be direct).
      self('service', '2.1.0', 7),
      [
        'body-parser',
        '1.20.1',
        'runtime',
        false,
        'resolved',
        25,
        [],
        'registry',
        'pkg:npm/body-parser@1.20.1',
      ],
      [
        'bytes',
        '3.1.2',
        'runtime',
        false,
        'resolved',
        33,
        ['body-parser'],
        'registry',
        'pkg:npm/bytes@3.1.2',
      ],
    ]);
  });

  it('not-json: a clear whole-file error and nothing else', () => {
    const result = extract('package-lock.json', fixture('not-json.txt'));
    expect(result.dependencies).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({
      line: null,
      message: expect.stringMatching(/^invalid JSON: /),
    });
  });

  it('one-bad-entry: bad entries are skipped and reported by line, the rest parses', () => {
    const result = extract('package-lock.json', fixture('one-bad-entry.json'));
    expect(result.errors).toEqual([
      { line: 14, message: 'packages["node_modules/broken"] is not an object; skipped' },
      { line: 15, message: 'node_modules/left-pad: no version; skipped' },
    ]);
    expect(rows(result.dependencies)).toEqual([
      // A root entry without a version: the project, unpinned.
      self('app', null, 7),
      [
        'lodash',
        '4.17.21',
        'runtime',
        true,
        'resolved',
        18,
        [],
        'registry',
        'pkg:npm/lodash@4.17.21',
      ],
    ]);
  });
});

describe('npm/package-lock: details', () => {
  it('claims package-lock.json and npm-shrinkwrap.json only', () => {
    const claims = ['package-lock.json', 'a/b/package-lock.json', 'npm-shrinkwrap.json'];
    for (const path of claims) expect(packageLockExtractor.matches(path)).toBe(true);
    for (const path of ['package.json', 'my-package-lock.json', 'yarn.lock']) {
      expect(packageLockExtractor.matches(path)).toBe(false);
    }
  });

  it('describes the lockfile version', () => {
    const v1 = inputOf('package-lock.json', fixture('v1-nested.json'));
    expect(packageLockExtractor.describe?.(v1)).toBe('package-lock.json v1');
    expect(packageLockExtractor.describe?.(inputOf('package-lock.json', '{}'))).toBe(
      'package-lock.json',
    );
  });

  it('finds lines by structural scan when the text is not npm-formatted', () => {
    // Minified: the indexOf fast path (`"key":` after `"packages":`) misses `"packages" :`.
    const text =
      '{"lockfileVersion":3,"packages" :{"":{"dependencies":{"a":"1"}},\n"node_modules/a" :{"version":"1.0.0"}}}';
    expect(rows(extract('package-lock.json', text).dependencies)).toEqual([
      ['a', '1.0.0', 'runtime', true, 'resolved', 2, [], 'registry', 'pkg:npm/a@1.0.0'],
    ]);
  });

  it('without a root entry, reads the sibling package.json for directness', () => {
    const text = JSON.stringify({
      lockfileVersion: 3,
      packages: {
        'node_modules/a': { version: '1.0.0', dependencies: { b: '^2' } },
        'node_modules/b': { version: '2.0.0' },
        'node_modules/c': { version: '3.0.0' },
      },
    });
    const manifest = JSON.stringify({ dependencies: { b: '^2.0.0' } });
    const withManifest = extract('x/package-lock.json', text, { 'x/package.json': manifest });
    expect(withManifest.dependencies.map((d) => [d.name, d.direct])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ]);
    // No manifest either: top-level packages nothing depends on.
    expect(extract('package-lock.json', text).dependencies.map((d) => [d.name, d.direct])).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
  });

  it('reports a missing lockfileVersion but still reads the entries', () => {
    const text = JSON.stringify({ packages: { 'node_modules/a': { version: '1.0.0' } } });
    const result = extract('package-lock.json', text);
    expect(result.errors.map((e) => e.message)).toEqual([
      'lockfileVersion is missing or not a number; reading the file as far as it goes',
    ]);
    expect(result.dependencies.map((d) => d.name)).toEqual(['a']);
  });

  it('rejects a top level that is not an object, and survives hostile nesting', () => {
    expect(extract('package-lock.json', '[1,2]').errors[0]?.message).toMatch(/not a JSON object/);
    const deep = `{"lockfileVersion":1,"dependencies":${'{"a":{"version":"1.0.0","dependencies":'.repeat(2000)}{}${'}}'.repeat(2000)}}`;
    const result = extract('package-lock.json', deep);
    // Whether JSON.parse copes or not, the extractor returns instead of throwing, and caps the walk.
    expect(Array.isArray(result.dependencies)).toBe(true);
    expect(result.dependencies.length).toBeLessThanOrEqual(100);
    expect(result.errors.length).toBeGreaterThan(0);
    expect(extract('package-lock.json', '['.repeat(200_000)).errors).toHaveLength(1);
  });

  it('handles keys with JSON escapes', () => {
    const text =
      '{\n  "lockfileVersion": 3,\n  "packages": {\n    "node_modules/\\u0061b": {\n      "version": "1.0.0"\n    }\n  }\n}';
    expect(rows(extract('package-lock.json', text).dependencies)).toEqual([
      ['ab', '1.0.0', 'runtime', true, 'resolved', 4, [], 'registry', 'pkg:npm/ab@1.0.0'],
    ]);
  });
});
