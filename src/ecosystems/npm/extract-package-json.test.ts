import { describe, expect, it } from 'vitest';
import { fixture, inputOf, type Row, rows } from '../../../test/support/npm-extract';
import { packageJsonExtractor } from './extract-package-json';

const extract = (text: string) => packageJsonExtractor.extract(inputOf('package.json', text));

const EVERY_SPEC: Row[] = [
  // Exact pins count as resolved (`=2.0.0` normalised).
  ['exact', '1.2.3', 'runtime', true, 'resolved', 6, [], 'registry', 'pkg:npm/exact@1.2.3'],
  ['exact-eq', '2.0.0', 'runtime', true, 'resolved', 7, [], 'registry', 'pkg:npm/exact-eq@2.0.0'],
  ['caret', '^4.17.21', 'runtime', true, 'declared', 8, [], 'registry', 'pkg:npm/caret'],
  ['range', '>=1.0.0 <2.0.0', 'runtime', true, 'declared', 9, [], 'registry', 'pkg:npm/range'],
  // `*`, '' and dist-tags move: unpinned.
  ['any', null, 'runtime', true, 'unpinned', 10, [], 'registry', 'pkg:npm/any'],
  ['empty', null, 'runtime', true, 'unpinned', 11, [], 'registry', 'pkg:npm/empty'],
  ['tagged', null, 'runtime', true, 'unpinned', 12, [], 'registry', 'pkg:npm/tagged'],
  ['next-tag', null, 'runtime', true, 'unpinned', 13, [], 'registry', 'pkg:npm/next-tag'],
  // `npm:` alias: the real package and its range.
  [
    '@scope/real',
    '^3.1.0',
    'runtime',
    true,
    'declared',
    14,
    [],
    'registry',
    'pkg:npm/%40scope/real',
  ],
  [
    'git-url',
    null,
    'runtime',
    true,
    'unpinned',
    15,
    [],
    'git git+https://github.com/acme/git-url.git#v1.0.0',
    'pkg:npm/git-url?vcs_url=git%2Bhttps%3A%2F%2Fgithub.com%2Facme%2Fgit-url.git',
  ],
  // Hosted shortcuts expand to the clone URL npm would use.
  [
    'gh',
    null,
    'runtime',
    true,
    'unpinned',
    16,
    [],
    'git git+https://github.com/acme/gh.git#main',
    'pkg:npm/gh?vcs_url=git%2Bhttps%3A%2F%2Fgithub.com%2Facme%2Fgh.git',
  ],
  [
    'shorthand',
    null,
    'runtime',
    true,
    'unpinned',
    17,
    [],
    'git git+https://github.com/acme/shorthand.git#',
    'pkg:npm/shorthand?vcs_url=git%2Bhttps%3A%2F%2Fgithub.com%2Facme%2Fshorthand.git',
  ],
  [
    'tarball',
    null,
    'runtime',
    true,
    'unpinned',
    18,
    [],
    'url https://example.com/tarball-1.0.0.tgz',
    'pkg:npm/tarball?download_url=https%3A%2F%2Fexample.com%2Ftarball-1.0.0.tgz',
  ],
  ['local', null, 'runtime', true, 'unpinned', 19, [], 'path ../local', 'pkg:npm/local'],
  ['linked', null, 'runtime', true, 'unpinned', 20, [], 'path ../linked', 'pkg:npm/linked'],
  ['ws', null, 'runtime', true, 'unpinned', 21, [], 'path workspace:^', 'pkg:npm/ws'],
  ['dup', '^1.0.0', 'runtime', true, 'declared', 22, [], 'registry', 'pkg:npm/dup'],
  [
    '@types/node',
    '~20.11.0',
    'development',
    true,
    'declared',
    25,
    [],
    'registry',
    'pkg:npm/%40types/node',
  ],
  // Same name and range, other scope: kept; the peer copy of `dup` (same scope) is merged.
  ['dup', '^1.0.0', 'development', true, 'declared', 26, [], 'registry', 'pkg:npm/dup'],
  ['fsevents', '2.x', 'optional', true, 'declared', 29, [], 'registry', 'pkg:npm/fsevents'],
  ['react', '^18.0.0', 'runtime', true, 'declared', 32, [], 'registry', 'pkg:npm/react'],
  // peerDependenciesMeta optional.
  ['react-dom', '^18.0.0', 'optional', true, 'declared', 33, [], 'registry', 'pkg:npm/react-dom'],
];

describe('npm/package-json', () => {
  it('classifies every kind of spec, with lines', () => {
    const result = extract(fixture('manifest-every-spec.json'));
    expect(result.errors).toEqual([]);
    expect(rows(result.dependencies)).toEqual(EVERY_SPEC);
  });

  it('skips and reports bad entries by line, keeps the rest', () => {
    const result = extract(fixture('manifest-bad-entries.json'));
    expect(result.errors).toEqual([
      { line: 5, message: 'dependencies.number: the version is not a string; skipped' },
      { line: 6, message: 'dependencies.nested: the version is not a string; skipped' },
      { line: 8, message: 'devDependencies is not an object; skipped' },
    ]);
    expect(rows(result.dependencies)).toEqual([
      ['fine', '^1.0.0', 'runtime', true, 'declared', 4, [], 'registry', 'pkg:npm/fine'],
    ]);
  });

  it('not JSON / not an object: one whole-file error', () => {
    const notJson = extract(fixture('not-json.txt'));
    expect(notJson.dependencies).toEqual([]);
    expect(notJson.errors).toHaveLength(1);
    expect(notJson.errors[0]).toMatchObject({
      line: null,
      message: expect.stringMatching(/^invalid JSON: /),
    });
    expect(extract('"just a string"').errors).toEqual([
      { line: null, message: 'package.json is not a JSON object' },
    ]);
    expect(extract('{"name":"no-deps"}')).toEqual({ dependencies: [], errors: [] });
  });

  it('claims package.json by base name and describes workspace roots', () => {
    expect(packageJsonExtractor.matches('package.json')).toBe(true);
    expect(packageJsonExtractor.matches('packages/a/package.json')).toBe(true);
    expect(packageJsonExtractor.matches('package-lock.json')).toBe(false);
    const root = inputOf('package.json', fixture('manifest-every-spec.json'));
    expect(packageJsonExtractor.describe?.(root)).toBe('package.json (workspaces root)');
    expect(packageJsonExtractor.describe?.(inputOf('package.json', '{}'))).toBe('package.json');
  });
});
