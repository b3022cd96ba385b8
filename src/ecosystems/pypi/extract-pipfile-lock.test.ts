import { describe, expect, it } from 'vitest';
import { dep, extractorFixtures } from '../../../test/support/extractor-fixtures';
import { extractPipfileLock, pipfileLockExtractor } from './extract-pipfile-lock';

const { fixture, fixtureInput } = extractorFixtures('pypi');

const lockInTree = (tree: string | null) =>
  fixtureInput('pipfile-lock-dev/Pipfile.lock', 'Pipfile.lock', tree);

describe('pypi/pipfile-lock', () => {
  it('claims Pipfile.lock only', () => {
    expect(pipfileLockExtractor.matches('Pipfile.lock')).toBe(true);
    expect(pipfileLockExtractor.matches('api/Pipfile.lock')).toBe(true);
    expect(pipfileLockExtractor.matches('Pipfile')).toBe(false);
    expect(pipfileLockExtractor.describe?.(lockInTree(null))).toBe('Pipfile.lock (spec 6)');
  });

  it('reads default, develop and categories; direct from the sibling Pipfile', () => {
    const result = extractPipfileLock(lockInTree('pipfile-lock-dev'));
    expect(result.dependencies).toEqual([
      dep({
        name: 'certifi',
        version: '2024.8.30',
        purl: 'pkg:pypi/certifi@2024.8.30',
        scope: 'runtime',
        direct: false,
        resolution: 'resolved',
        line: 19,
      }),
      dep({
        name: 'requests',
        version: '2.32.3',
        purl: 'pkg:pypi/requests@2.32.3',
        scope: 'runtime',
        direct: true,
        resolution: 'resolved',
        line: 26,
      }),
      // a git entry has no version: its commit is in the source, not a registry version
      dep({
        name: 'mylib',
        version: null,
        purl: 'pkg:pypi/mylib',
        scope: 'runtime',
        direct: false,
        resolution: 'unpinned',
        line: 33,
        source: {
          kind: 'git',
          url: 'https://github.com/example/mylib.git',
          ref: '3f1b272abd51b2c4e9b3a8f0d1c2e3f4a5b6c7d8',
        },
      }),
      // "myproject" (path ".") is the project itself: its own package, with no version
      dep({
        name: 'myproject',
        version: null,
        purl: 'pkg:pypi/myproject',
        scope: 'self',
        direct: false,
        resolution: 'unpinned',
        line: 38,
        source: { kind: 'path', path: '.' },
      }),
      dep({
        name: 'pytest',
        version: '8.3.3',
        purl: 'pkg:pypi/pytest@8.3.3',
        scope: 'development',
        direct: true,
        resolution: 'resolved',
        line: 44,
      }),
      // requests is listed under [packages], not [dev-packages]: in develop it is transitive
      dep({
        name: 'requests',
        version: '2.32.3',
        purl: 'pkg:pypi/requests@2.32.3',
        scope: 'development',
        direct: false,
        resolution: 'resolved',
        line: 48,
      }),
      dep({
        name: 'iniconfig',
        version: '2.0.0',
        purl: 'pkg:pypi/iniconfig@2.0.0',
        scope: 'development',
        direct: false,
        resolution: 'resolved',
        line: 51,
      }),
      dep({
        name: 'sphinx',
        version: '7.4.7',
        purl: 'pkg:pypi/sphinx@7.4.7',
        scope: 'development',
        direct: true,
        resolution: 'resolved',
        line: 62,
      }),
    ]);
    expect(result.errors).toEqual([
      { line: 54, message: "'Bad Entry' in 'develop' is not a package entry" },
      { line: 57, message: "'noversion' in 'develop' has no version" },
    ]);
  });

  it('reports every entry as transitive when no Pipfile can be read', () => {
    const result = extractPipfileLock(lockInTree(null));
    expect(result.dependencies).toHaveLength(8);
    expect(result.dependencies.filter((d) => d.direct)).toEqual([]);
  });

  it('salvages the entries of a truncated lock after one whole-file error', () => {
    const result = extractPipfileLock(
      fixtureInput('pipfile-lock-truncated.json', 'Pipfile.lock', 'pipfile-lock-dev'),
    );
    expect(result.dependencies).toEqual([
      dep({
        name: 'certifi',
        version: '2024.8.30',
        purl: 'pkg:pypi/certifi@2024.8.30',
        scope: 'runtime',
        direct: false,
        resolution: 'resolved',
        line: 19,
      }),
    ]);
    expect(result.errors).toHaveLength(1);
    // Truncated: the shared JSON layer points at the file's last line, where the text stops.
    expect(result.errors[0]!.line).toBe(fixture('pipfile-lock-truncated.json').split('\n').length);
    expect(result.errors[0]!.message).toMatch(/^Pipfile\.lock is not valid JSON: /);
  });

  it('finds lines in a lock that is not laid out by pipenv', () => {
    const compact = JSON.stringify(JSON.parse(fixture('pipfile-lock-dev/Pipfile.lock')));
    const result = extractPipfileLock({
      path: 'Pipfile.lock',
      text: compact,
      readFile: () => null,
    });
    expect(result.dependencies.map((d) => d.line)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    const spread = compact.replace(/\{/g, '{\n');
    const lines = extractPipfileLock({ path: 'Pipfile.lock', text: spread, readFile: () => null });
    expect(lines.dependencies.map((d) => [d.name, d.line])).toEqual([
      ['certifi', 7],
      ['requests', 8],
      ['mylib', 9],
      ['myproject', 10],
      ['pytest', 12],
      ['requests', 13],
      ['iniconfig', 14],
      ['sphinx', 18],
    ]);
  });

  it('rejects JSON that is not an object, or nested too deeply, without throwing', () => {
    const run = (text: string) =>
      extractPipfileLock({ path: 'Pipfile.lock', text, readFile: () => null });
    expect(run('[]')).toEqual({
      dependencies: [],
      errors: [{ line: null, message: 'Pipfile.lock is not a JSON object' }],
    });
    const deep = run(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    expect(deep.dependencies).toEqual([]);
    expect(deep.errors).toHaveLength(1);
  });
});
