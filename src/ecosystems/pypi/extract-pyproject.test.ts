import { describe, expect, it } from 'vitest';
import { dep, extractorFixtures } from '../../../test/support/extractor-fixtures';
import {
  extractPyproject,
  poetryConstraint,
  pyprojectDirectNames,
  pyprojectExtractor,
} from './extract-pyproject';

const { fixture, fixtureInput } = extractorFixtures('pypi');

describe('pypi/pyproject', () => {
  it('claims pyproject.toml only', () => {
    expect(pyprojectExtractor.matches('pyproject.toml')).toBe(true);
    expect(pyprojectExtractor.matches('libs/a/pyproject.toml')).toBe(true);
    expect(pyprojectExtractor.matches('pyproject.toml.orig')).toBe(false);
    expect(
      pyprojectExtractor.describe?.(fixtureInput('pyproject-pep621.toml', 'pyproject.toml')),
    ).toBe('pyproject.toml (PEP 621)');
    expect(
      pyprojectExtractor.describe?.(fixtureInput('pyproject-poetry.toml', 'pyproject.toml')),
    ).toBe('pyproject.toml (Poetry)');
  });

  it.each([
    ['*', null, 'unpinned'],
    ['', null, 'unpinned'],
    ['1.2.3', '1.2.3', 'resolved'],
    ['==1.2.3', '1.2.3', 'resolved'],
    ['^1.2', '^1.2', 'declared'],
    ['~1.2', '~1.2', 'declared'],
    ['>=1,<2', '>=1,<2', 'declared'],
    ['1.2.*', '1.2.*', 'declared'],
    ['^1 || ^2', '^1 || ^2', 'declared'],
  ])('Poetry constraint %j is %j (%s)', (text, version, resolution) => {
    expect(poetryConstraint(text)).toEqual({ version, resolution });
  });

  it('reads PEP 621 dependencies, extras, dependency groups and build requirements', () => {
    const result = extractPyproject(fixtureInput('pyproject-pep621.toml', 'pyproject.toml'));
    const runtime = { scope: 'runtime' as const, direct: true };
    expect(result.dependencies).toEqual([
      // line 10, not line 8 where "requests" is a keyword
      dep({
        ...runtime,
        name: 'requests',
        version: '>=2.26,<3.0',
        purl: 'pkg:pypi/requests',
        resolution: 'declared',
        line: 10,
      }),
      dep({
        ...runtime,
        name: 'django',
        version: '4.2.16',
        purl: 'pkg:pypi/django@4.2.16',
        resolution: 'resolved',
        line: 11,
      }),
      dep({
        ...runtime,
        name: 'tomli',
        version: '>=2.0.1',
        purl: 'pkg:pypi/tomli',
        resolution: 'declared',
        line: 12,
      }),
      dep({
        ...runtime,
        name: 'cachecontrol',
        version: '>=0.14.0,<0.15.0',
        purl: 'pkg:pypi/cachecontrol',
        resolution: 'declared',
        line: 13,
      }),
      dep({
        ...runtime,
        name: 'poetry-core',
        version: null,
        purl: 'pkg:pypi/poetry-core',
        resolution: 'unpinned',
        line: 14,
        source: {
          kind: 'git',
          url: 'https://github.com/python-poetry/poetry-core.git',
          ref: 'main',
        },
      }),
      dep({
        ...runtime,
        name: 'attrs',
        version: null,
        purl: 'pkg:pypi/attrs',
        resolution: 'unpinned',
        line: 15,
      }),
      dep({
        scope: 'optional',
        direct: true,
        name: 'pysocks',
        version: '>=1.5.6,!=1.5.7',
        purl: 'pkg:pypi/pysocks',
        resolution: 'declared',
        line: 20,
      }),
      dep({
        scope: 'optional',
        direct: true,
        name: 'pytest',
        version: '8.3.3',
        purl: 'pkg:pypi/pytest@8.3.3',
        resolution: 'resolved',
        line: 21,
      }),
      // { include-group = "test" } adds nothing: the test group lists its own entries
      dep({
        scope: 'development',
        direct: true,
        name: 'ruff',
        version: '>=0.7',
        purl: 'pkg:pypi/ruff',
        resolution: 'declared',
        line: 25,
      }),
      dep({
        scope: 'test',
        direct: true,
        name: 'pytest',
        version: '>=8',
        purl: 'pkg:pypi/pytest',
        resolution: 'declared',
        line: 29,
      }),
      dep({
        scope: 'test',
        direct: true,
        name: 'coverage',
        version: null,
        purl: 'pkg:pypi/coverage',
        resolution: 'unpinned',
        line: 30,
      }),
      dep({
        scope: 'development',
        direct: true,
        name: 'mkdocs',
        version: '~=1.6',
        purl: 'pkg:pypi/mkdocs',
        resolution: 'declared',
        line: 32,
      }),
      dep({
        scope: 'build',
        direct: true,
        name: 'hatchling',
        version: '>=1.25',
        purl: 'pkg:pypi/hatchling',
        resolution: 'declared',
        line: 2,
      }),
    ]);
    expect(result.errors).toEqual([
      { line: 16, message: "[project] dependencies: not a requirement: 'this is not valid'" },
    ]);
  });

  it('reads Poetry dependencies, dev-dependencies and groups, python excluded', () => {
    const result = extractPyproject(fixtureInput('pyproject-poetry.toml', 'pyproject.toml'));
    const runtime = { scope: 'runtime' as const, direct: true };
    const unpinned = { version: null, resolution: 'unpinned' as const };
    expect(result.dependencies).toEqual([
      dep({
        ...runtime,
        name: 'requests',
        version: '^2.32',
        purl: 'pkg:pypi/requests',
        resolution: 'declared',
        line: 8,
      }),
      dep({
        ...runtime,
        name: 'flask',
        version: '~3.0',
        purl: 'pkg:pypi/flask',
        resolution: 'declared',
        line: 9,
      }),
      dep({
        ...runtime,
        name: 'pendulum',
        version: '3.0.0',
        purl: 'pkg:pypi/pendulum@3.0.0',
        resolution: 'resolved',
        line: 10,
      }),
      // multiple constraints: one entry each
      dep({
        ...runtime,
        name: 'numpy',
        version: '<2.0',
        purl: 'pkg:pypi/numpy',
        resolution: 'declared',
        line: 11,
      }),
      dep({
        ...runtime,
        name: 'numpy',
        version: '>=2.0',
        purl: 'pkg:pypi/numpy',
        resolution: 'declared',
        line: 11,
      }),
      dep({
        ...runtime,
        ...unpinned,
        name: 'mylib',
        purl: 'pkg:pypi/mylib',
        line: 15,
        source: { kind: 'git', url: 'https://github.com/example/mylib.git', ref: 'v1.0.0' },
      }),
      dep({
        ...runtime,
        ...unpinned,
        name: 'local-helper',
        purl: 'pkg:pypi/local-helper',
        line: 16,
        source: { kind: 'path', path: '../local-helper' },
      }),
      dep({
        ...runtime,
        name: 'wheelie',
        version: '1.0.0',
        purl: 'pkg:pypi/wheelie@1.0.0',
        resolution: 'resolved',
        line: 17,
        source: {
          kind: 'url',
          url: 'https://files.example.invalid/wheelie-1.0.0-py3-none-any.whl',
        },
      }),
      dep({
        scope: 'optional',
        direct: true,
        name: 'psycopg2',
        version: '^2.9',
        purl: 'pkg:pypi/psycopg2',
        resolution: 'declared',
        line: 18,
      }),
      dep({ ...runtime, ...unpinned, name: 'anything', purl: 'pkg:pypi/anything', line: 19 }),
      dep({
        scope: 'development',
        direct: true,
        name: 'black',
        version: '^24.0',
        purl: 'pkg:pypi/black',
        resolution: 'declared',
        line: 23,
      }),
      dep({
        scope: 'test',
        direct: true,
        name: 'pytest',
        version: '>=8.0,<9',
        purl: 'pkg:pypi/pytest',
        resolution: 'declared',
        line: 26,
      }),
      dep({
        scope: 'development',
        direct: true,
        ...unpinned,
        name: 'mkdocs',
        purl: 'pkg:pypi/mkdocs',
        line: 32,
      }),
    ]);
    expect(result.errors).toEqual([
      {
        line: 20,
        message: '[tool.poetry.dependencies] bad: expected a constraint string or a table',
      },
    ]);
  });

  it('lets [project] win over [tool.poetry.dependencies] for the same name (Poetry 2)', () => {
    const text = [
      '[project]',
      'dependencies = ["requests>=2.30"]',
      '[tool.poetry.dependencies]',
      'requests = { source = "internal" }',
      'rich = "^13"',
    ].join('\n');
    const result = extractPyproject({ path: 'pyproject.toml', text, readFile: () => null });
    expect(result.dependencies).toEqual([
      dep({
        name: 'requests',
        version: '>=2.30',
        purl: 'pkg:pypi/requests',
        scope: 'runtime',
        direct: true,
        resolution: 'declared',
        line: 2,
      }),
      dep({
        name: 'rich',
        version: '^13',
        purl: 'pkg:pypi/rich',
        scope: 'runtime',
        direct: true,
        resolution: 'declared',
        line: 5,
      }),
    ]);
  });

  it('lists the names a project asks for (build requirements aside) for lockfiles', () => {
    expect([...(pyprojectDirectNames(fixture('pyproject-pep621.toml')) ?? [])]).toEqual([
      'requests',
      'django',
      'tomli',
      'cachecontrol',
      'poetry-core',
      'attrs',
      'pysocks',
      'pytest',
      'ruff',
      'coverage',
      'mkdocs',
    ]);
    expect(pyprojectDirectNames('not = [toml')).toBeNull();
  });

  it('reports text that is not TOML as one whole-file error, and odd shapes per entry', () => {
    expect(extractPyproject(fixtureInput('not-toml.txt', 'pyproject.toml'))).toEqual({
      dependencies: [],
      errors: [
        {
          line: null,
          message:
            'pyproject.toml is not valid TOML at line 1: Invalid TOML document: illegal character in key',
        },
      ],
    });
    const odd = extractPyproject({
      path: 'pyproject.toml',
      text: '[project]\ndependencies = "requests"\n[dependency-groups]\ndev = [1, "ok"]\n',
      readFile: () => null,
    });
    expect(odd.dependencies.map((d) => d.name)).toEqual(['ok']);
    expect(odd.errors).toEqual([
      { line: null, message: '[project] dependencies must be an array' },
      { line: null, message: '[dependency-groups] dev: entries must be strings' },
    ]);
  });
});
