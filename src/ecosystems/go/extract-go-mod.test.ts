import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExtractedDependency } from '../types';
import { extractGoMod, goModExtractor, tokenizeGoModLine } from './extract-go-mod';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');
const run = (name: string) =>
  extractGoMod({ path: 'go.mod', text: fixture(name), readFile: () => null });

function mod(
  name: string,
  version: string,
  line: number,
  direct: boolean,
  purl: string,
): ExtractedDependency {
  return {
    name,
    version,
    purl,
    scope: 'runtime',
    direct,
    resolution: 'resolved',
    line,
    parents: [],
    source: { kind: 'registry' },
  };
}

/** The `module` line: the project itself, with no version (go.mod never records its own). */
function own(name: string, line: number): ExtractedDependency {
  return {
    name,
    version: null,
    purl: `pkg:golang/${name}`,
    scope: 'self',
    direct: false,
    resolution: 'unpinned',
    line,
    parents: [],
    source: { kind: 'path', path: '.' },
  };
}

describe('go/go-mod', () => {
  it('claims go.mod files only', () => {
    expect(goModExtractor.matches('go.mod')).toBe(true);
    expect(goModExtractor.matches('svc/api/go.mod')).toBe(true);
    expect(goModExtractor.matches('go.sum')).toBe(false);
    expect(goModExtractor.matches('vendor/go.mod.bak')).toBe(false);
  });

  it('extracts every require with replace applied, and ignores the other directives', () => {
    expect(run('all-directives.mod')).toEqual({
      dependencies: [
        own('example.com/app', 2),
        mod(
          'github.com/single/line',
          'v1.0.0',
          13,
          true,
          'pkg:golang/github.com/single/line@v1.0.0',
        ),
        mod(
          'github.com/BurntSushi/toml',
          'v1.4.0',
          16,
          true,
          'pkg:golang/github.com/BurntSushi/toml@v1.4.0',
        ),
        mod(
          'github.com/quoted/path',
          'v0.3.1',
          17,
          true,
          'pkg:golang/github.com/quoted/path@v0.3.1',
        ),
        mod('golang.org/x/mod', 'v0.21.0', 18, false, 'pkg:golang/golang.org/x/mod@v0.21.0'),
        mod(
          'github.com/pseudo/dep',
          'v0.0.0-20240927000941-0f3dac36c52b',
          19,
          false,
          'pkg:golang/github.com/pseudo/dep@v0.0.0-20240927000941-0f3dac36c52b',
        ),
        mod(
          'github.com/legacy/pkg',
          'v2.3.0+incompatible',
          20,
          true,
          'pkg:golang/github.com/legacy/pkg@v2.3.0+incompatible',
        ),
        // `replace old => new v` swaps in the replacement module: that is the code that is built;
        // the original stays, at its required version, as replaced (its advisories still apply).
        mod('github.com/fork/all', 'v1.1.5', 21, true, 'pkg:golang/github.com/fork/all@v1.1.5'),
        {
          ...mod(
            'github.com/replaced/all',
            'v1.1.0',
            21,
            true,
            'pkg:golang/github.com/replaced/all@v1.1.0',
          ),
          source: { kind: 'replaced', by: 'github.com/fork/all', version: 'v1.1.5' },
        },
        mod(
          'github.com/fork/exact',
          'v1.2.1-0.20241212181136-fad1cd13edbd',
          22,
          false,
          'pkg:golang/github.com/fork/exact@v1.2.1-0.20241212181136-fad1cd13edbd',
        ),
        {
          ...mod(
            'github.com/replaced/exact',
            'v1.2.0',
            22,
            false,
            'pkg:golang/github.com/replaced/exact@v1.2.0',
          ),
          source: {
            kind: 'replaced',
            by: 'github.com/fork/exact',
            version: 'v1.2.1-0.20241212181136-fad1cd13edbd',
          },
        },
        // Its replace names v1.0.0, which is not the required version.
        mod(
          'github.com/replaced/other',
          'v1.3.0',
          23,
          true,
          'pkg:golang/github.com/replaced/other@v1.3.0',
        ),
        // A directory replacement: the original at its required version, replaced by the directory.
        {
          ...mod(
            'github.com/local/fork',
            'v0.5.0',
            24,
            true,
            'pkg:golang/github.com/local/fork@v0.5.0',
          ),
          source: { kind: 'replaced', by: './third_party/fork', version: null },
        },
      ],
      errors: [],
    });
  });

  it('replace: a fork, a pinned version of the same module, a local directory', () => {
    const result = run('replace-kinds.mod');
    expect(result.errors).toEqual([]);
    expect(
      result.dependencies.map((d) => [d.name, d.version, d.resolution, d.line, d.source]),
    ).toEqual([
      ['example.com/replacing', null, 'unpinned', 1, { kind: 'path', path: '.' }],
      // a fork: the fork is built, the upstream is kept as replaced
      ['github.com/acme/yaml', 'v3.0.2', 'resolved', 4, { kind: 'registry' }],
      [
        'gopkg.in/yaml.v3',
        'v3.0.0',
        'resolved',
        4,
        { kind: 'replaced', by: 'github.com/acme/yaml', version: 'v3.0.2' },
      ],
      // the same module at another version: only that version is built, nothing else to report
      ['golang.org/x/net', 'v0.33.0', 'resolved', 5, { kind: 'registry' }],
      // a local directory: the original at the required version, replaced by the directory
      [
        'github.com/vendored/lib',
        'v1.4.0',
        'resolved',
        6,
        { kind: 'replaced', by: '../lib', version: null },
      ],
    ]);
  });

  it('keeps what precedes a truncation and reports one whole-file error', () => {
    const result = run('truncated.mod');
    expect(result.dependencies.map((d) => [d.name, d.version, d.direct, d.line])).toEqual([
      ['example.com/cut', null, false, 1],
      ['github.com/first/dep', 'v1.0.0', true, 6],
      ['github.com/second/dep', 'v2.1.0+incompatible', false, 7],
    ]);
    expect(result.errors).toEqual([
      { line: null, message: 'file ends inside the require block opened on line 5 (truncated?)' },
      { line: 8, message: 'require needs a module path and a version' },
    ]);
  });

  it('skips and reports bad entries, keeping the rest', () => {
    const result = run('bad-entries.mod');
    expect(result.dependencies.map((d) => [d.name, d.version, d.direct, d.line])).toEqual([
      ['example.com/bad', null, false, 1],
      ['github.com/good/one', 'v1.0.0', true, 6],
      ['github.com/good/two', 'v0.2.0', false, 9],
    ]);
    expect(result.errors).toEqual([
      { line: 7, message: 'require needs a module path and a version' },
      { line: 8, message: 'invalid version "latest" for github.com/bad/version' },
      { line: 12, message: 'unknown directive: frobnicate' },
      { line: 14, message: 'replacement module github.com/fork/one needs a version' },
    ]);
  });

  it('accepts an empty require block', () => {
    expect(run('empty-module.mod')).toEqual({
      dependencies: [own('example.com/empty', 1)],
      errors: [],
    });
  });

  it('deduplicates a module required twice at the same version', () => {
    const text = 'module m\nrequire a.io/x v1.0.0\nrequire (\n\ta.io/x v1.0.0\n)\n';
    const result = extractGoMod({ path: 'go.mod', text, readFile: () => null });
    expect(result.dependencies.map((d) => d.line)).toEqual([1, 2]);
  });

  it.each([
    ['', { tokens: [], comment: null }],
    ['require (', { tokens: ['require', '('], comment: null }],
    ['\ta.io/b v1.0.0 // indirect', { tokens: ['a.io/b', 'v1.0.0'], comment: 'indirect' }],
    ['a.io/b=>./x', { tokens: ['a.io/b', '=>', './x'], comment: null }],
    [
      'retract [v1.0.0, v1.1.0]',
      { tokens: ['retract', '[', 'v1.0.0', ',', 'v1.1.0', ']'], comment: null },
    ],
    ['`raw/path` "esc\\"aped"', { tokens: ['raw/path', 'esc"aped'], comment: null }],
    ['"open', null],
  ])('tokenizes %j', (line, expected) => {
    expect(tokenizeGoModLine(line)).toEqual(expected);
  });

  it('describes the go version', () => {
    const input = { path: 'go.mod', text: fixture('all-directives.mod'), readFile: () => null };
    expect(goModExtractor.describe?.(input)).toBe('go.mod (go 1.23.4)');
  });

  it('handles CRLF line endings', () => {
    const text = 'module m\r\n\r\nrequire (\r\n\ta.io/x v1.0.0 // indirect\r\n)\r\n';
    const result = extractGoMod({ path: 'go.mod', text, readFile: () => null });
    expect(result.errors).toEqual([]);
    expect(result.dependencies.map((d) => [d.name, d.version, d.direct, d.line])).toEqual([
      ['m', null, false, 1],
      ['a.io/x', 'v1.0.0', false, 4],
    ]);
  });
});
