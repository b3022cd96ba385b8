import { describe, expect, it } from 'vitest';
import { dep, extractorFixtures } from '../../../test/support/extractor-fixtures';
import { extractPipfile, pipenvSpecifier, pipfileExtractor } from './extract-pipfile';

const { fixtureInput } = extractorFixtures('pypi');

describe('pypi/pipfile', () => {
  it('claims Pipfile only', () => {
    expect(pipfileExtractor.matches('Pipfile')).toBe(true);
    expect(pipfileExtractor.matches('svc/Pipfile')).toBe(true);
    expect(pipfileExtractor.matches('Pipfile.lock')).toBe(false);
    expect(pipfileExtractor.matches('pipfile')).toBe(false);
  });

  it.each([
    ['3.*', '==3.*'],
    ['1.2', '==1.2'],
    ['>=1.0', '>=1.0'],
    ['== 2.0', '==2.0'],
    ['*', '*'],
  ])('pipenv reads %j as %j', (spec, expected) => {
    expect(pipenvSpecifier(spec)).toBe(expected);
  });

  it('reads packages, dev-packages and custom categories with their sources', () => {
    const result = extractPipfile(fixtureInput('pipfile-basic.toml', 'Pipfile'));
    const runtime = { scope: 'runtime' as const, direct: true };
    const unpinned = { version: null, resolution: 'unpinned' as const };
    expect(result.dependencies).toEqual([
      dep({ ...runtime, ...unpinned, name: 'requests', purl: 'pkg:pypi/requests', line: 7 }),
      dep({
        ...runtime,
        name: 'django',
        version: '4.2.16',
        purl: 'pkg:pypi/django@4.2.16',
        resolution: 'resolved',
        line: 8,
      }),
      dep({
        ...runtime,
        name: 'zope-interface',
        version: '>=6.0',
        purl: 'pkg:pypi/zope-interface',
        resolution: 'declared',
        line: 9,
      }),
      dep({
        ...runtime,
        name: 'waitress',
        version: '==3.*',
        purl: 'pkg:pypi/waitress',
        resolution: 'declared',
        line: 10,
      }),
      dep({ ...runtime, ...unpinned, name: 'myst-parser', purl: 'pkg:pypi/myst-parser', line: 11 }),
      dep({ ...runtime, ...unpinned, name: 'legacy-cgi', purl: 'pkg:pypi/legacy-cgi', line: 12 }),
      dep({
        ...runtime,
        ...unpinned,
        name: 'mylib',
        purl: 'pkg:pypi/mylib',
        line: 13,
        source: { kind: 'git', url: 'https://github.com/example/mylib.git', ref: 'v1.2.0' },
      }),
      dep({
        ...runtime,
        ...unpinned,
        name: 'localpkg',
        purl: 'pkg:pypi/localpkg',
        line: 14,
        source: { kind: 'path', path: './packages/localpkg' },
      }),
      dep({
        ...runtime,
        name: 'wheelie',
        version: '1.0.0',
        purl: 'pkg:pypi/wheelie@1.0.0',
        resolution: 'resolved',
        line: 15,
        source: {
          kind: 'url',
          url: 'https://files.example.invalid/wheelie-1.0.0-py3-none-any.whl',
        },
      }),
      dep({
        scope: 'development',
        direct: true,
        name: 'pytest',
        version: '==8.*',
        purl: 'pkg:pypi/pytest',
        resolution: 'declared',
        line: 20,
      }),
      dep({
        scope: 'development',
        direct: true,
        name: 'black',
        version: '>=24.1',
        purl: 'pkg:pypi/black',
        resolution: 'declared',
        line: 21,
      }),
      // also in [packages]: kept, it is a different scope
      dep({
        scope: 'development',
        direct: true,
        ...unpinned,
        name: 'requests',
        purl: 'pkg:pypi/requests',
        line: 22,
      }),
      // [docs] is a pipenv category; its name says development
      dep({
        scope: 'development',
        direct: true,
        name: 'sphinx',
        version: '~=7.2',
        purl: 'pkg:pypi/sphinx',
        resolution: 'declared',
        line: 25,
      }),
    ]);
    expect(result.errors).toEqual([
      { line: 16, message: "'broken': expected a version string or a table" },
      { line: 17, message: "'bad name!' is not a valid package name" },
    ]);
  });

  it('reports a file that is not TOML as one whole-file error', () => {
    const result = extractPipfile(fixtureInput('not-toml.txt', 'Pipfile'));
    expect(result.dependencies).toEqual([]);
    expect(result.errors).toEqual([
      {
        line: null,
        message:
          'Pipfile is not valid TOML at line 1: Invalid TOML document: illegal character in key',
      },
    ]);
  });

  it('treats an unknown category as optional and an invalid specifier as a bad entry', () => {
    const result = extractPipfile({
      path: 'Pipfile',
      text: '[extras-web]\nuvicorn = ">=0.30"\n[packages]\nbad = ">=not.a.version"\n',
      readFile: () => null,
    });
    expect(result.dependencies).toEqual([
      dep({
        name: 'uvicorn',
        version: '>=0.30',
        purl: 'pkg:pypi/uvicorn',
        scope: 'optional',
        direct: true,
        resolution: 'declared',
        line: 2,
      }),
    ]);
    expect(result.errors).toEqual([
      { line: 4, message: "'bad': invalid version 'not.a.version' in specifier '>=not.a.version'" },
    ]);
  });
});
