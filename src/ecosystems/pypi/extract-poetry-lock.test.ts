import { describe, expect, it } from 'vitest';
import { dep, extractorFixtures } from '../../../test/support/extractor-fixtures';
import { extractPoetryLock, poetryLockExtractor } from './extract-poetry-lock';

const { fixtureInput } = extractorFixtures('pypi');

const withPyproject = { 'app/pyproject.toml': 'poetry-lock-groups.pyproject.toml' };
const poetryCore = {
  kind: 'git' as const,
  url: 'https://github.com/python-poetry/poetry-core.git',
  ref: 'e3998b0e111dc03e4aa721fd054c48e5c7de6fc5',
};

describe('pypi/poetry-lock', () => {
  it('claims poetry.lock only', () => {
    expect(poetryLockExtractor.matches('poetry.lock')).toBe(true);
    expect(poetryLockExtractor.matches('backend/poetry.lock')).toBe(true);
    expect(poetryLockExtractor.matches('pyproject.toml')).toBe(false);
    expect(
      poetryLockExtractor.describe?.(fixtureInput('poetry-lock-groups.lock', 'poetry.lock')),
    ).toBe('poetry.lock (lock-version 2.1)');
  });

  it('reads groups, sources and edges; direct from the sibling pyproject.toml', () => {
    const result = extractPoetryLock(
      fixtureInput('poetry-lock-groups.lock', 'app/poetry.lock', withPyproject),
    );
    const locked = { resolution: 'resolved' as const };
    expect(result.dependencies).toEqual([
      dep({
        ...locked,
        name: 'certifi',
        version: '2024.8.30',
        purl: 'pkg:pypi/certifi@2024.8.30',
        scope: 'runtime',
        direct: false,
        line: 3,
        parents: ['requests'],
      }),
      // groups main + test: main wins
      dep({
        ...locked,
        name: 'colorama',
        version: '0.4.6',
        purl: 'pkg:pypi/colorama@0.4.6',
        scope: 'runtime',
        direct: false,
        line: 14,
        parents: ['pytest'],
      }),
      // optional = true in main: only an extra pulls it in
      dep({
        ...locked,
        name: 'filelock',
        version: '3.16.1',
        purl: 'pkg:pypi/filelock@3.16.1',
        scope: 'optional',
        direct: true,
        line: 24,
      }),
      dep({
        ...locked,
        name: 'poetry-core',
        version: '2.0.1',
        purl: 'pkg:pypi/poetry-core@2.0.1',
        scope: 'runtime',
        direct: true,
        line: 34,
        source: poetryCore,
      }),
      // groups dev + test: development is the wider of the two
      dep({
        ...locked,
        name: 'pytest',
        version: '8.3.3',
        purl: 'pkg:pypi/pytest@8.3.3',
        scope: 'development',
        direct: true,
        line: 50,
      }),
      dep({
        ...locked,
        name: 'iniconfig',
        version: '2.0.0',
        purl: 'pkg:pypi/iniconfig@2.0.0',
        scope: 'test',
        direct: false,
        line: 63,
        parents: ['pytest'],
      }),
      dep({
        ...locked,
        name: 'requests',
        version: '2.32.3',
        purl: 'pkg:pypi/requests@2.32.3',
        scope: 'runtime',
        direct: true,
        line: 72,
      }),
      dep({
        ...locked,
        name: 'charset-normalizer',
        version: '3.4.0',
        purl: 'pkg:pypi/charset-normalizer@3.4.0',
        scope: 'runtime',
        direct: false,
        line: 85,
        parents: ['requests'],
      }),
      dep({
        ...locked,
        name: 'mkdocs',
        version: '1.6.1',
        purl: 'pkg:pypi/mkdocs@1.6.1',
        scope: 'development',
        direct: true,
        line: 94,
      }),
      dep({
        ...locked,
        name: 'local-helper',
        version: '0.1.0',
        purl: 'pkg:pypi/local-helper@0.1.0',
        scope: 'runtime',
        direct: true,
        line: 103,
        source: { kind: 'path', path: 'libs/local-helper' },
      }),
    ]);
    expect(result.errors).toEqual([
      { line: 116, message: 'package entry without a valid name and version' },
    ]);
  });

  it('without a pyproject.toml, the roots of the graph are the direct entries', () => {
    const result = extractPoetryLock(fixtureInput('poetry-lock-groups.lock', 'poetry.lock'));
    expect(result.dependencies.filter((d) => d.direct).map((d) => d.name)).toEqual([
      'filelock',
      'poetry-core',
      'pytest',
      'requests',
      'mkdocs',
      'local-helper',
    ]);
  });

  it('reads lock-version 1 `category`', () => {
    const result = extractPoetryLock(
      fixtureInput('poetry-lock-legacy-category.lock', 'poetry.lock'),
    );
    expect(result.dependencies).toEqual([
      dep({
        name: 'six',
        version: '1.16.0',
        purl: 'pkg:pypi/six@1.16.0',
        scope: 'runtime',
        direct: false,
        resolution: 'resolved',
        line: 1,
        parents: ['mock'],
      }),
      dep({
        name: 'mock',
        version: '5.1.0',
        purl: 'pkg:pypi/mock@5.1.0',
        scope: 'development',
        direct: true,
        resolution: 'resolved',
        line: 9,
      }),
    ]);
    expect(result.errors).toEqual([]);
  });

  it('salvages the intact entries of a truncated lock after one whole-file error', () => {
    const result = extractPoetryLock(fixtureInput('poetry-lock-truncated.lock', 'poetry.lock'));
    expect(result.dependencies.map((d) => [d.name, d.version, d.line])).toEqual([
      ['certifi', '2024.8.30', 3],
      ['colorama', '0.4.6', 14],
      ['filelock', '3.16.1', 24],
      ['poetry-core', '2.0.1', 34],
    ]);
    expect(result.errors).toEqual([
      {
        line: null,
        message:
          'poetry.lock is not valid TOML at line 61: Invalid TOML document: incomplete key-value: cannot find end of key',
      },
    ]);
  });

  it('reports text that is not TOML, and TOML that is not a lock', () => {
    expect(extractPoetryLock(fixtureInput('not-toml.txt', 'poetry.lock'))).toEqual({
      dependencies: [],
      errors: [
        {
          line: null,
          message:
            'poetry.lock is not valid TOML at line 1: Invalid TOML document: illegal character in key',
        },
      ],
    });
    expect(
      extractPoetryLock({ path: 'poetry.lock', text: 'a = 1\n', readFile: () => null }),
    ).toEqual({
      dependencies: [],
      errors: [
        { line: null, message: 'poetry.lock has neither [[package]] entries nor [metadata]' },
      ],
    });
  });

  it('refuses absurd nesting with one error instead of exhausting the stack', () => {
    const text = `[[package]]\nname = "a"\nversion = "1"\nx = ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`;
    const result = extractPoetryLock({ path: 'poetry.lock', text, readFile: () => null });
    expect(result.dependencies).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.message).toMatch(/^poetry\.lock is not valid TOML/);
  });
});
