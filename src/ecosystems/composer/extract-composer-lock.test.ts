import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExtractedDependency } from '../types';
import { composerLockExtractor, extractComposerLock } from './extract-composer-lock';

const fixture = (name: string) =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const run = (name: string, files: Record<string, string> = {}) =>
  extractComposerLock({
    path: 'app/composer.lock',
    text: fixture(name),
    readFile: (p) => files[p] ?? null,
  });

const registry = { kind: 'registry' } as const;
function locked(
  name: string,
  version: string,
  line: number,
  extra: Partial<ExtractedDependency> = {},
): ExtractedDependency {
  return {
    name,
    version,
    purl: `pkg:composer/${name}@${version}`,
    scope: 'runtime',
    direct: false,
    resolution: 'resolved',
    line,
    parents: [],
    source: registry,
    ...extra,
  };
}

describe('composer/composer-lock', () => {
  it('claims composer.lock only', () => {
    expect(['composer.lock', 'a/composer.lock'].every(composerLockExtractor.matches)).toBe(true);
    expect(
      ['composer.json', 'mycomposer.lock', 'composer.lock.bak'].some(composerLockExtractor.matches),
    ).toBe(false);
  });

  it('reads packages and packages-dev with edges, direct from the sibling composer.json', () => {
    expect(run('small-app.lock', { 'app/composer.json': fixture('small-app.json') })).toEqual({
      dependencies: [
        locked('guzzlehttp/guzzle', '7.9.2', 7, { direct: true }),
        locked('guzzlehttp/promises', '2.0.3', 38, {
          parents: ['guzzlehttp/guzzle', 'phpunit/phpunit'],
        }),
        locked('psr/http-client', '1.0.3', 52, { parents: ['guzzlehttp/guzzle'] }),
        locked('phpunit/phpunit', '10.5.30', 59, { scope: 'development', direct: true }),
      ],
      errors: [],
    });
  });

  it('falls back to graph roots as direct dependencies without a composer.json', () => {
    const result = run('small-app.lock');
    expect(result.dependencies.map((d) => [d.name, d.direct])).toEqual([
      ['guzzlehttp/guzzle', true],
      ['guzzlehttp/promises', false],
      ['psr/http-client', false],
      ['phpunit/phpunit', true],
    ]);
  });

  it('tells VCS, path and URL packages from registry ones and drops exact duplicates', () => {
    expect(run('vcs-and-path.lock')).toEqual({
      dependencies: [
        locked('acme/private-lib', 'dev-main', 3, {
          direct: true,
          source: {
            kind: 'git',
            url: 'git@github.com:acme/private-lib.git',
            ref: '1f2e3d4c5b6a7980a1b2c3d4e5f60718293a4b5c',
          },
        }),
        locked('acme/local-tools', '1.0.0', 15, {
          parents: ['acme/private-lib'],
          source: { kind: 'path', path: './packages/local-tools' },
        }),
        locked('acme/tarball', '0.3.1', 24, {
          direct: true,
          source: { kind: 'url', url: 'https://downloads.example.com/tarball-0.3.1.tar.gz' },
        }),
      ],
      errors: [],
    });
  });

  it('skips bad entries with their line and keeps the rest', () => {
    expect(run('bad-entries.lock')).toEqual({
      dependencies: [locked('monolog/monolog', '3.7.0', 4, { direct: true })],
      errors: [
        { line: 3, message: 'packages[0] is not an object: skipped' },
        { line: 9, message: 'packages[2] has no name or version: skipped' },
        { line: 12, message: 'packages[3] has no name or version: skipped' },
        { line: 17, message: '"packages-dev" is not an array' },
      ],
    });
  });

  it.each([
    [
      'truncated.lock',
      {
        line: 18,
        message: 'composer.lock is not valid JSON: Unterminated string in JSON at position 700',
      },
    ],
    ['no-packages.lock', { line: null, message: 'composer.lock has no "packages" array' }],
  ])('fails %s as a whole file', (name, error) => {
    expect(run(name)).toEqual({ dependencies: [], errors: [error] });
  });

  it('describes the lock with its plugin API version', () => {
    const text = fixture('small-app.lock');
    expect(
      composerLockExtractor.describe?.({ path: 'composer.lock', text, readFile: () => null }),
    ).toBe('composer.lock (plugin-api 2.6.0)');
  });

  it('survives absurd nesting without throwing', () => {
    const text = `{"packages": [${'['.repeat(100_000)}${']'.repeat(100_000)}]}`;
    const result = extractComposerLock({ path: 'composer.lock', text, readFile: () => null });
    expect(result.dependencies).toEqual([]);
    expect(result.errors).toEqual([{ line: 1, message: 'packages[0] is not an object: skipped' }]);
  });
});
