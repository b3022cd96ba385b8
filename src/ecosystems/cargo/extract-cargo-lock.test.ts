import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DependencySource, ExtractedDependency } from '../types';
import { cargoLockExtractor, extractCargoLock, parseCargoSource } from './extract-cargo-lock';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');
const input = (name: string) => ({ path: 'Cargo.lock', text: fixture(name), readFile: () => null });

const CRATES_IO: DependencySource = { kind: 'registry' };

function crate(
  name: string,
  version: string,
  line: number,
  direct: boolean,
  parents: string[],
  source: DependencySource = CRATES_IO,
): ExtractedDependency {
  return {
    name,
    version,
    purl: `pkg:cargo/${name}@${version}`,
    scope: 'runtime',
    direct,
    resolution: 'resolved',
    line,
    parents,
    source,
  };
}

/** A crate without a source: the project's own code (scope `self`). */
function own(name: string, version: string, line: number | null, parents: string[] = []) {
  return {
    ...crate(name, version, 0, false, parents, { kind: 'path', path: '.' }),
    scope: 'self' as const,
    line,
  };
}

describe('cargo/cargo-lock', () => {
  it('claims Cargo.lock files only', () => {
    expect(cargoLockExtractor.matches('Cargo.lock')).toBe(true);
    expect(cargoLockExtractor.matches('crates/x/Cargo.lock')).toBe(true);
    expect(cargoLockExtractor.matches('Cargo.toml')).toBe(false);
    expect(cargoLockExtractor.matches('cargo.lock')).toBe(false);
  });

  it('v4 workspace: members are self components and roots; edges and directness from them', () => {
    expect(extractCargoLock(input('workspace-v4.lock'))).toEqual({
      dependencies: [
        own('app', '0.1.0', 5),
        own('app-core', '0.1.0', 14, ['app']),
        crate('forked', '1.0.0', 24, true, ['app-core'], {
          kind: 'git',
          url: 'https://github.com/example/forked',
          ref: '0123456789abcdef0123456789abcdef01234567',
        }),
        crate('internal-registry-crate', '2.0.0-rc.1', 29, true, ['app-core']),
        // "rand 0.8.5" / "rand 0.9.0": the version picks between the two locked copies.
        crate('rand', '0.8.5', 35, true, ['app']),
        crate('rand', '0.9.0', 44, true, ['app-core']),
        crate('rand_core', '0.6.4', 53, false, ['rand']),
        crate('serde', '1.0.210', 59, true, ['app', 'app-core']),
      ],
      errors: [],
    });
  });

  it('v1: [root] is a root, "name version (source)" references resolve, [metadata] is ignored', () => {
    expect(extractCargoLock(input('legacy-v1.lock'))).toEqual({
      dependencies: [
        own('old-app', '0.2.0', 1),
        crate('cfg-if', '0.1.2', 9, false, ['log']),
        crate('libc', '0.2.40', 14, true, ['old-app']),
        crate('log', '0.4.1', 19, true, ['old-app']),
      ],
      errors: [],
    });
  });

  it('v2 (no version key, inline checksums) parses the same way', () => {
    const text = [
      '[[package]]',
      'name = "me"',
      'version = "0.1.0"',
      'dependencies = ["itoa"]',
      '',
      '[[package]]',
      'name = "itoa"',
      'version = "1.0.11"',
      'source = "registry+https://github.com/rust-lang/crates.io-index"',
      'checksum = "ffff"',
    ].join('\n');
    const lock = { path: 'Cargo.lock', text, readFile: () => null };
    expect(extractCargoLock(lock)).toEqual({
      dependencies: [own('me', '0.1.0', 1), crate('itoa', '1.0.11', 6, true, ['me'])],
      errors: [],
    });
    expect(cargoLockExtractor.describe?.(lock)).toBe('Cargo.lock v2');
  });

  it('truncated: one whole-file error, the complete packages are salvaged', () => {
    const result = extractCargoLock(input('truncated.lock'));
    expect(result.dependencies).toEqual([
      own('app', '0.1.0', 3),
      crate('itoa', '1.0.11', 11, true, ['app']),
    ]);
    expect(result.errors).toEqual([
      {
        line: null,
        message:
          'Cargo.lock is not valid TOML: Invalid TOML document: control characters are not allowed in strings (line 19)',
      },
      { line: 3, message: 'app depends on unknown package ryu' },
      {
        line: 17,
        message:
          'skipped package: Invalid TOML document: control characters are not allowed in strings',
      },
    ]);
  });

  it('skips and reports bad packages and dangling references', () => {
    const result = extractCargoLock(input('bad-entries.lock'));
    expect(result.dependencies).toEqual([
      own('app', '0.1.0', 3),
      crate('good', '1.2.3', 20, true, ['app']),
    ]);
    expect(result.errors).toEqual([
      { line: 3, message: 'app depends on unknown package missing-crate' },
      { line: 11, message: 'package broken-version has an invalid version "one.two"' },
      { line: 16, message: 'package without a name' },
    ]);
  });

  it('reports a non-TOML file as one error', () => {
    const result = extractCargoLock({
      path: 'Cargo.lock',
      text: '{"json": true}',
      readFile: () => null,
    });
    expect(result.dependencies).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.line).toBeNull();
  });

  it.each([
    ['registry+https://github.com/rust-lang/crates.io-index', { kind: 'registry' }],
    ['sparse+https://index.crates.io/', { kind: 'registry' }],
    [
      'git+https://github.com/a/b?rev=abc#abc1234',
      { kind: 'git', url: 'https://github.com/a/b', ref: 'abc1234' },
    ],
    [
      'git+ssh://git@github.com/a/b.git',
      { kind: 'git', url: 'ssh://git@github.com/a/b.git', ref: null },
    ],
    ['path+file:///home/me/crate', { kind: 'path', path: 'file:///home/me/crate' }],
    ['directory+/vendor', { kind: 'url', url: 'directory+/vendor' }],
  ])('parseCargoSource(%j)', (source, expected) => {
    expect(parseCargoSource(source)).toEqual(expected);
  });

  it('describes the lockfile version', () => {
    expect(cargoLockExtractor.describe?.(input('workspace-v4.lock'))).toBe('Cargo.lock v4');
    expect(cargoLockExtractor.describe?.(input('legacy-v1.lock'))).toBe('Cargo.lock v1');
  });
});
