import { describe, expect, it } from 'vitest';
import { resolveInTree } from './common';
import {
  analyseUrl,
  archiveNameVersion,
  classifySpecifier,
  looksLikePath,
  parseRequirement,
} from './pep508';
import { indexTomlLines } from './toml-lines';

describe('PEP 508 requirements', () => {
  it.each([
    ['requests', { name: 'requests', extras: [], specifier: '', url: null, marker: null }],
    [
      'requests>=2.0',
      { name: 'requests', extras: [], specifier: '>=2.0', url: null, marker: null },
    ],
    [
      'requests [security, socks] >= 2.0 , < 3 ; python_version < "3.8"',
      {
        name: 'requests',
        extras: ['security', 'socks'],
        specifier: '>=2.0,<3',
        url: null,
        marker: 'python_version < "3.8"',
      },
    ],
    [
      'build (>=1.2.1,<2.0.0)',
      { name: 'build', extras: [], specifier: '>=1.2.1,<2.0.0', url: null, marker: null },
    ],
    [
      'a;os_name=="nt"',
      { name: 'a', extras: [], specifier: '', url: null, marker: 'os_name=="nt"' },
    ],
    [
      'pkg[x] @ https://h.invalid/pkg-1.0.tar.gz ; python_version >= "3"',
      {
        name: 'pkg',
        extras: ['x'],
        specifier: '',
        url: 'https://h.invalid/pkg-1.0.tar.gz',
        marker: 'python_version >= "3"',
      },
    ],
    [
      'Django==6.0.*',
      { name: 'Django', extras: [], specifier: '==6.0.*', url: null, marker: null },
    ],
    [
      'x===weird-legacy',
      { name: 'x', extras: [], specifier: '===weird-legacy', url: null, marker: null },
    ],
  ])('parses %j', (text, expected) => {
    expect(parseRequirement(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['-bad', "not a requirement: '-bad'"],
    ['name-', "not a requirement: 'name-'"],
    ['a[b', "unclosed extras in 'a[b'"],
    ['a @', "missing URL after '@' in 'a @'"],
    ['a @ http://x y', "unexpected text after URL in 'a @ http://x y'"],
    ['a >= ', "invalid version specifier '>='"],
    ['a =>1', "invalid version specifier '=>1'"],
    ['a ==1.0.*.post1', "invalid version '1.0.*.post1' in specifier '==1.0.*.post1'"],
    ['a >=1.*', "invalid version '1.*' in specifier '>=1.*'"],
  ])('rejects %j', (text, message) => {
    expect(parseRequirement(text)).toEqual({ ok: false, message });
  });

  it.each([
    ['', null, 'unpinned'],
    ['==1.2.3', '1.2.3', 'resolved'],
    ['===1.2.3', '1.2.3', 'resolved'],
    ['==1.2.*', '==1.2.*', 'declared'],
    ['==1.2.3,!=1.2.4', '==1.2.3,!=1.2.4', 'declared'],
    ['~=1.2', '~=1.2', 'declared'],
  ])('specifier %j is %j (%s)', (specifier, version, resolution) => {
    expect(classifySpecifier(specifier)).toEqual({ version, resolution });
  });

  it.each([
    ['foo-1.0-py3-none-any.whl', { name: 'foo', version: '1.0' }],
    [
      'Foo_Bar-2.1.0-1-cp312-cp312-manylinux_2_17_x86_64.whl',
      { name: 'Foo_Bar', version: '2.1.0' },
    ],
    ['foo-bar-1.0.tar.gz', { name: 'foo-bar', version: '1.0' }],
    ['foo-1.0rc1.zip', { name: 'foo', version: '1.0rc1' }],
    ['foo.tar.gz', null],
    ['foo-x.whl', null],
    ['readme.txt', null],
  ])('archive %s names %j', (file, expected) => {
    expect(archiveNameVersion(file)).toEqual(expected);
  });

  it.each([
    [
      'git+https://github.com/o/r.git@v1#egg=r',
      { kind: 'git', url: 'https://github.com/o/r.git', ref: 'v1' },
      'r',
    ],
    [
      'git+ssh://git@github.com/o/r.git',
      { kind: 'git', url: 'ssh://git@github.com/o/r.git', ref: null },
      null,
    ],
    [
      'git+https://u:p@h.invalid/r@abc#egg=r[x]&subdirectory=s',
      { kind: 'git', url: 'https://u:p@h.invalid/r', ref: 'abc' },
      'r',
    ],
    ['svn+https://h.invalid/r#egg=s', { kind: 'url', url: 'svn+https://h.invalid/r#egg=s' }, 's'],
    [
      'file:///srv/w/x-1.0-py3-none-any.whl',
      { kind: 'path', path: '/srv/w/x-1.0-py3-none-any.whl' },
      'x',
    ],
    [
      'https://h.invalid/p/x-2.0.tar.gz?sig=1',
      { kind: 'url', url: 'https://h.invalid/p/x-2.0.tar.gz?sig=1' },
      'x',
    ],
  ])('URL %s', (url, source, name) => {
    const info = analyseUrl(url);
    expect(info.source).toEqual(source);
    expect(info.name).toBe(name);
  });

  it.each([
    ['./x', true],
    ['../x', true],
    ['/abs', true],
    ['dir/sub', true],
    ['dist/x-1.0-py3-none-any.whl', true],
    ['x-1.0.tar.gz', true],
    ['requests', false],
    ['requests>=1', false],
  ])('looksLikePath(%j) is %s', (text, expected) => {
    expect(looksLikePath(text)).toBe(expected);
  });

  it.each([
    ['', 'a.txt', 'a.txt'],
    ['req', '../a.txt', 'a.txt'],
    ['req', './sub/./b.txt', 'req/sub/b.txt'],
    ['req', 'sub\\b.txt', 'req/sub/b.txt'],
    ['', '../a.txt', null],
    ['req', '../../a.txt', null],
    ['', '/etc/passwd', null],
    ['', 'C:\\x.txt', null],
    ['', 'https://h.invalid/r.txt', null],
    ['', 'file:r.txt', null],
  ])('resolveInTree(%j, %j) is %j', (dir, ref, expected) => {
    expect(resolveInTree(dir, ref)).toBe(expected);
  });
});

describe('TOML line index', () => {
  const text = [
    '[tool.poetry."dependencies"]', // 1
    'requests = "^2"', // 2
    'note = """', // 3
    '[[package]]', // 4: inside a multi-line string, not a header
    '"""', // 5
    '[project]', // 6
    'keywords = ["requests"]', // 7
    'dependencies = [', // 8
    '  "requests>=2", # "not-a-dep"', // 9
    '  "requests>=2",', // 10
    ']', // 11
    '[[package]]', // 12
    "name = 'x'", // 13
  ].join('\n');
  const index = indexTomlLines(text);

  it('finds keys, strings per key and array headers, skipping multi-line strings and comments', () => {
    expect(index.keyLine('tool.poetry.dependencies', 'requests')).toBe(2);
    expect(index.arrayHeaderLines('package')).toEqual([12]);
    expect(index.stringLine('project', 'keywords', 'requests')).toBe(7);
    expect(index.stringLine('project', 'dependencies', 'requests>=2')).toBe(9);
    expect(index.stringLine('project', 'dependencies', 'requests>=2')).toBe(10);
    expect(index.stringLine('project', 'dependencies', 'not-a-dep')).toBeNull();
    expect(index.keyLine('package', 'name')).toBe(13);
  });

  it('stays linear on hostile lines', () => {
    const hostile = `[${' '.repeat(200_000)}\n${'\n'.repeat(200_000)}"${'a'.repeat(200_000)}\n`;
    const started = performance.now();
    const lines = indexTomlLines(hostile);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(lines.arrayHeaderLines('package')).toEqual([]);
  });
});
