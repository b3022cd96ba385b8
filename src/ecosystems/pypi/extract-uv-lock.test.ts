import { describe, expect, it } from 'vitest';
import { dep, extractorFixtures } from '../../../test/support/extractor-fixtures';
import { extractUvLock, uvLockExtractor } from './extract-uv-lock';

const { fixtureInput } = extractorFixtures('pypi');

describe('pypi/uv-lock', () => {
  it('claims uv.lock only', () => {
    expect(uvLockExtractor.matches('uv.lock')).toBe(true);
    expect(uvLockExtractor.matches('py/uv.lock')).toBe(true);
    expect(uvLockExtractor.matches('uv.lock.json')).toBe(false);
    expect(uvLockExtractor.describe?.(fixtureInput('uv-lock-workspace.lock', 'uv.lock'))).toBe(
      'uv.lock (version 1)',
    );
  });

  it('reports the project and members as self, makes their requirements direct and flows scopes down the edges', () => {
    const result = extractUvLock(fixtureInput('uv-lock-workspace.lock', 'uv.lock'));
    const locked = { resolution: 'resolved' as const };
    expect(result.dependencies).toEqual([
      // the project (editable ".") and a workspace member: the project's own packages
      dep({
        ...locked,
        name: 'albatross',
        version: '0.1.0',
        purl: 'pkg:pypi/albatross@0.1.0',
        scope: 'self',
        direct: false,
        line: 11,
        source: { kind: 'path', path: '.' },
      }),
      dep({
        ...locked,
        name: 'bird-feeder',
        version: '1.0.0',
        purl: 'pkg:pypi/bird-feeder@1.0.0',
        scope: 'self',
        direct: false,
        line: 33,
        source: { kind: 'path', path: 'packages/bird-feeder' },
      }),
      // required by the member bird-feeder: direct
      dep({
        ...locked,
        name: 'anyio',
        version: '4.6.2',
        purl: 'pkg:pypi/anyio@4.6.2',
        scope: 'runtime',
        direct: true,
        line: 41,
      }),
      dep({
        ...locked,
        name: 'idna',
        version: '3.10',
        purl: 'pkg:pypi/idna@3.10',
        scope: 'runtime',
        direct: false,
        line: 50,
        parents: ['anyio'],
      }),
      dep({
        ...locked,
        name: 'sniffio',
        version: '1.3.1',
        purl: 'pkg:pypi/sniffio@1.3.1',
        scope: 'runtime',
        direct: false,
        line: 55,
        parents: ['anyio'],
      }),
      dep({
        ...locked,
        name: 'tqdm',
        version: '4.66.5',
        purl: 'pkg:pypi/tqdm@4.66.5',
        scope: 'runtime',
        direct: true,
        line: 60,
        source: {
          kind: 'git',
          url: 'https://github.com/tqdm/tqdm',
          ref: '4c956c20b83be4312460fc0c4812eeb3fef5e7df',
        },
      }),
      // reached from runtime (tqdm) and from the optional extra (click): runtime wins
      dep({
        ...locked,
        name: 'colorama',
        version: '0.4.6',
        purl: 'pkg:pypi/colorama@0.4.6',
        scope: 'runtime',
        direct: false,
        line: 68,
        parents: ['tqdm', 'click'],
      }),
      dep({
        ...locked,
        name: 'click',
        version: '8.1.7',
        purl: 'pkg:pypi/click@8.1.7',
        scope: 'optional',
        direct: true,
        line: 73,
      }),
      dep({
        ...locked,
        name: 'pytest',
        version: '8.3.3',
        purl: 'pkg:pypi/pytest@8.3.3',
        scope: 'test',
        direct: true,
        line: 81,
      }),
      dep({
        ...locked,
        name: 'iniconfig',
        version: '2.0.0',
        purl: 'pkg:pypi/iniconfig@2.0.0',
        scope: 'test',
        direct: false,
        line: 90,
        parents: ['pytest'],
        source: {
          kind: 'url',
          url: 'https://files.example.invalid/iniconfig-2.0.0-py3-none-any.whl',
        },
      }),
      // the edge names version 1.2.2, so 1.1.0 has no parent and no root reaches it
      dep({
        ...locked,
        name: 'exceptiongroup',
        version: '1.2.2',
        purl: 'pkg:pypi/exceptiongroup@1.2.2',
        scope: 'test',
        direct: false,
        line: 95,
        parents: ['pytest'],
      }),
      dep({
        ...locked,
        name: 'exceptiongroup',
        version: '1.1.0',
        purl: 'pkg:pypi/exceptiongroup@1.1.0',
        scope: 'runtime',
        direct: false,
        line: 100,
      }),
      dep({
        ...locked,
        name: 'ruff',
        version: '0.7.0',
        purl: 'pkg:pypi/ruff@0.7.0',
        scope: 'development',
        direct: true,
        line: 105,
      }),
      dep({
        name: 'vendored',
        version: null,
        purl: 'pkg:pypi/vendored',
        scope: 'runtime',
        direct: false,
        resolution: 'unpinned',
        line: 110,
        source: { kind: 'path', path: 'vendor/vendored-0.0.1.tar.gz' },
      }),
    ]);
    expect(result.errors).toEqual([{ line: 114, message: 'package entry without a valid name' }]);
  });

  it('without any project root, entries nothing depends on are direct', () => {
    const text = [
      'version = 1',
      '[[package]]',
      'name = "a"',
      'version = "1.0"',
      'source = { registry = "https://pypi.org/simple" }',
      'dependencies = [{ name = "b" }]',
      '[[package]]',
      'name = "b"',
      'version = "2.0"',
      'source = { registry = "https://pypi.org/simple" }',
    ].join('\n');
    const result = extractUvLock({ path: 'uv.lock', text, readFile: () => null });
    expect(result.dependencies).toEqual([
      dep({
        name: 'a',
        version: '1.0',
        purl: 'pkg:pypi/a@1.0',
        scope: 'runtime',
        direct: true,
        resolution: 'resolved',
        line: 2,
      }),
      dep({
        name: 'b',
        version: '2.0',
        purl: 'pkg:pypi/b@2.0',
        scope: 'runtime',
        direct: false,
        resolution: 'resolved',
        line: 7,
        parents: ['a'],
      }),
    ]);
  });

  it('salvages the intact entries of a damaged lock after one whole-file error', () => {
    // break a string inside anyio's dependency list (line 47)
    const text = fixtureInput('uv-lock-workspace.lock', 'uv.lock').text.replace(
      '{ name = "sniffio" }',
      '{ name = "sniffio }',
    );
    const result = extractUvLock({ path: 'uv.lock', text, readFile: () => null });
    expect(result.errors).toEqual([
      {
        line: null,
        message:
          'uv.lock is not valid TOML at line 47: Invalid TOML document: control characters are not allowed in strings',
      },
      { line: 114, message: 'package entry without a valid name' },
    ]);
    // anyio is lost with its edges; the members from [manifest] still make the rest direct
    expect(result.dependencies.map((d) => [d.name, d.scope, d.direct, d.line, d.parents])).toEqual([
      ['albatross', 'self', false, 11, []],
      ['bird-feeder', 'self', false, 33, []],
      ['idna', 'runtime', false, 50, []],
      ['sniffio', 'runtime', false, 55, []],
      ['tqdm', 'runtime', true, 60, []],
      ['colorama', 'runtime', false, 68, ['tqdm', 'click']],
      ['click', 'optional', true, 73, []],
      ['pytest', 'test', true, 81, []],
      ['iniconfig', 'test', false, 90, ['pytest']],
      ['exceptiongroup', 'test', false, 95, ['pytest']],
      ['exceptiongroup', 'runtime', false, 100, []],
      ['ruff', 'development', true, 105, []],
      ['vendored', 'runtime', false, 110, []],
    ]);
  });

  it('reports text that is not TOML as one whole-file error', () => {
    expect(extractUvLock(fixtureInput('not-toml.txt', 'uv.lock'))).toEqual({
      dependencies: [],
      errors: [
        {
          line: null,
          message:
            'uv.lock is not valid TOML at line 1: Invalid TOML document: illegal character in key',
        },
      ],
    });
  });
});
