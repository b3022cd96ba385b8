import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DependencyScope, DependencySource, ExtractedDependency } from '../types';
import { cargoTomlExtractor, extractCargoToml, splitKeyPath } from './extract-cargo-toml';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');

function dep(
  name: string,
  version: string | null,
  line: number,
  options: { scope?: DependencyScope; source?: DependencySource; exact?: boolean } = {},
): ExtractedDependency {
  const resolution = options.exact ? 'resolved' : version === null ? 'unpinned' : 'declared';
  return {
    name,
    version,
    purl: options.exact ? `pkg:cargo/${name}@${version}` : `pkg:cargo/${name}`,
    scope: options.scope ?? 'runtime',
    direct: true,
    resolution,
    line,
    parents: [],
    source: options.source ?? { kind: 'registry' },
  };
}

describe('cargo/cargo-toml', () => {
  it('claims Cargo.toml files only', () => {
    expect(cargoTomlExtractor.matches('Cargo.toml')).toBe(true);
    expect(cargoTomlExtractor.matches('crates/a/Cargo.toml')).toBe(true);
    expect(cargoTomlExtractor.matches('Cargo.lock')).toBe(false);
    expect(cargoTomlExtractor.matches('pyproject.toml')).toBe(false);
  });

  it('reads every dependency table with its scope, source and exact line', () => {
    const text = fixture('package-all-tables.toml');
    expect(extractCargoToml({ path: 'Cargo.toml', text, readFile: () => null })).toEqual({
      dependencies: [
        dep('serde', '1.0', 7),
        dep('tokio', '1.38', 8),
        dep('regex', '1.10.5', 9, { exact: true }), // `=1.10.5` is an exact pin
        dep('anything', null, 10), // `*` pins nothing
        dep('quoted-name', '~0.3', 11),
        dep('log', '0.4', 12, { scope: 'optional' }),
        dep('serde_json', '>=1.0.100, <2', 13), // renamed: reported under the published name
        dep('forked', null, 14, {
          source: { kind: 'git', url: 'https://github.com/example/forked', ref: 'abc1234' },
        }),
        dep('tagged', '2.0', 15, {
          source: { kind: 'git', url: 'https://github.com/example/tagged', ref: 'v2.0.0' },
        }),
        dep('local', '0.2', 16, { source: { kind: 'path', path: '../local' } }),
        dep('clap', '4.5', 21), // [dependencies.clap] table form: the header's line
        dep('serde', '1.0', 26, { scope: 'development' }),
        dep('insta', '1.39', 27, { scope: 'development' }),
        dep('cc', '1.0.98', 30, { scope: 'build' }), // bare = caret requirement: declared
        dep('libc', '0.2', 33),
        dep('windows-sys', '0.52', 36, { scope: 'development' }),
      ],
      errors: [
        { line: 17, message: 'dependency bad-number has a non-string version' },
        { line: 18, message: 'dependency bad-requirement has an invalid requirement ^^1' },
        { line: 19, message: 'dependency not-a-table is neither a string nor a table' },
      ],
    });
  });

  it('resolves { workspace = true } from the nearest ancestor workspace root', () => {
    const asked: string[] = [];
    const root = fixture('workspace-root.toml');
    const result = extractCargoToml({
      path: 'crates/cli/Cargo.toml',
      text: fixture('workspace-member.toml'),
      readFile: (p) => {
        asked.push(p);
        return p === 'Cargo.toml' ? root : null;
      },
    });
    expect(asked).toEqual(['crates/Cargo.toml', 'Cargo.toml']);
    expect(result).toEqual({
      dependencies: [
        dep('anyhow', '1.0.86', 6),
        dep('serde', '1.0.203', 7),
        dep('git-thing', null, 8, {
          scope: 'optional',
          source: { kind: 'git', url: 'https://github.com/example/git-thing', ref: 'main' },
        }),
        // The path is as written in the root manifest (relative to the root).
        dep('core-crate', '0.1.0', 9, { source: { kind: 'path', path: 'crates/core' } }),
        dep('not-in-root', null, 10), // nothing to inherit: unpinned
      ],
      errors: [],
    });
  });

  it('follows package.workspace when the member names its root', () => {
    const text =
      '[package]\nname = "x"\nworkspace = "../.."\n\n[dependencies]\nanyhow = { workspace = true }\n';
    const result = extractCargoToml({
      path: 'a/b/c/Cargo.toml',
      text,
      readFile: (p) => (p === 'a/Cargo.toml' ? fixture('workspace-root.toml') : null),
    });
    expect(result.dependencies).toEqual([dep('anyhow', '1.0.86', 6)]);
  });

  it('leaves inheritance unresolved when the root lies outside the tree', () => {
    const text =
      '[package]\nname = "x"\nworkspace = "../../.."\n[dependencies]\na = { workspace = true }\n';
    const result = extractCargoToml({
      path: 'x/Cargo.toml',
      text,
      readFile: () => '[workspace]\n',
    });
    expect(result.dependencies).toEqual([dep('a', null, 5)]);
  });

  it('reports a workspace root’s [workspace.dependencies] and describes it', () => {
    const input = {
      path: 'Cargo.toml',
      text: fixture('workspace-root.toml'),
      readFile: () => null,
    };
    expect(extractCargoToml(input)).toEqual({
      dependencies: [
        dep('anyhow', '1.0.86', 6),
        dep('serde', '1.0.203', 7),
        dep('git-thing', null, 8, {
          source: { kind: 'git', url: 'https://github.com/example/git-thing', ref: 'main' },
        }),
        dep('core-crate', '0.1.0', 9, { source: { kind: 'path', path: 'crates/core' } }),
      ],
      errors: [],
    });
    expect(cargoTomlExtractor.describe?.(input)).toBe('Cargo.toml (workspace: 2 member patterns)');
  });

  it('salvages the sections that parse when the file is not valid TOML', () => {
    const text = fixture('broken-section.toml');
    const result = extractCargoToml({ path: 'Cargo.toml', text, readFile: () => null });
    expect(result.dependencies).toEqual([dep('proptest', '1.4', 10, { scope: 'development' })]);
    expect(result.errors).toEqual([
      {
        line: null,
        // smol-toml notices the unclosed inline table where the next section starts.
        message:
          'Cargo.toml is not valid TOML: Invalid TOML document: expected comma or end of structure (line 9)',
      },
      {
        line: 5,
        message: 'skipped section: Invalid TOML document: expected comma or end of structure',
      },
    ]);
  });

  it('deduplicates an identical declaration and survives hostile nesting', () => {
    const dup = '[dependencies]\nserde = "1"\n[target.\'cfg(unix)\'.dependencies]\nserde = "1"\n';
    expect(
      extractCargoToml({ path: 'Cargo.toml', text: dup, readFile: () => null }).dependencies,
    ).toEqual([dep('serde', '1', 2)]);
    const deep = `[dependencies]\nx = ${'{ a = '.repeat(5000)}1${' }'.repeat(5000)}\n`;
    const result = extractCargoToml({ path: 'Cargo.toml', text: deep, readFile: () => null });
    expect(result.dependencies).toEqual([]);
    expect(result.errors.length).toBeGreaterThan(0);
  });

  it.each([
    ['dependencies', ['dependencies']],
    [
      'target.\'cfg(target_os = "linux")\'.dependencies',
      ['target', 'cfg(target_os = "linux")', 'dependencies'],
    ],
    [' workspace . dependencies ', ['workspace', 'dependencies']],
    ['a."b.c"', ['a', 'b.c']],
    ['a..b', null],
    ['"open', null],
  ])('splitKeyPath(%j)', (text, expected) => {
    expect(splitKeyPath(text)).toEqual(expected);
  });
});
