import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DependencyScope, DependencySource, ExtractedDependency } from '../types';
import { extractGemfile, gemfileExtractor, scopeOfGroups, stripComment } from './extract-gemfile';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');

function gem(
  name: string,
  version: string | null,
  line: number,
  options: { scope?: DependencyScope; source?: DependencySource; exact?: boolean } = {},
): ExtractedDependency {
  return {
    name,
    version,
    purl: options.exact ? `pkg:gem/${name}@${version}` : `pkg:gem/${name}`,
    scope: options.scope ?? 'runtime',
    direct: true,
    resolution: options.exact ? 'resolved' : version === null ? 'unpinned' : 'declared',
    line,
    parents: [],
    source: options.source ?? { kind: 'registry' },
  };
}

describe('rubygems/gemfile', () => {
  it('claims Gemfile and gems.rb only', () => {
    expect(gemfileExtractor.matches('Gemfile')).toBe(true);
    expect(gemfileExtractor.matches('app/gems.rb')).toBe(true);
    expect(gemfileExtractor.matches('Gemfile.lock')).toBe(false);
    expect(gemfileExtractor.matches('MyGemfile')).toBe(false);
  });

  it('reads the declarative DSL without evaluating it', () => {
    const text = fixture('dsl-forms.gemfile');
    expect(extractGemfile({ path: 'Gemfile', text, readFile: () => null })).toEqual({
      dependencies: [
        gem('rails', '~> 7.2.1', 9),
        gem('pg', '>= 1.1, < 2.0', 10),
        gem('puma', '6.4.2', 11, { exact: true }), // a bare version means `= 6.4.2`
        gem('exact', '1.0.0', 12, { exact: true }),
        gem('bootsnap', null, 13),
        gem('tzinfo-data', null, 14),
        gem('sidekiq', '~> 7.0', 15), // production is installed by default: runtime
        gem('rubocop', null, 16, { scope: 'development' }),
        gem('pry', null, 17, { scope: 'development' }),
        gem('multi', '~> 2.0', 18), // continued over three lines
        gem('paren', '~> 1.0', 21),
        gem('from_git', null, 22, {
          source: { kind: 'git', url: 'https://github.com/example/from_git.git', ref: 'v1.2.0' },
        }),
        gem('from_github', null, 23, {
          source: { kind: 'git', url: 'https://github.com/example/from_github.git', ref: 'abc123' },
        }),
        gem('local', null, 24, { source: { kind: 'path', path: 'vendor/local' } }),
        gem('conditional', null, 27),
        gem('modern', null, 30), // the `if … end` does not close anything else
        gem('debug', null, 34, { scope: 'development' }),
        gem('rspec-rails', null, 36, { scope: 'development' }), // nested: development + test
        gem('capybara', null, 41, { scope: 'test' }),
        gem('mono-a', null, 45, {
          source: { kind: 'git', url: 'https://github.com/example/monorepo.git', ref: 'stable' },
        }),
        gem('mono-b', null, 46, {
          scope: 'test',
          source: { kind: 'git', url: 'https://github.com/example/monorepo.git', ref: 'stable' },
        }),
        gem('component', null, 50, { source: { kind: 'path', path: 'components' } }),
        gem('jruby-openssl', null, 54),
        gem('private-gem', '~> 0.4', 58),
        gem('after-blocks', null, 61),
      ],
      errors: [
        { line: 25, message: 'gem name is not a literal string' },
        { line: 26, message: 'gem bad-req: invalid requirement ~> nope' },
      ],
    });
  });

  it('reports a Gemfile cut inside a block, keeping what was read', () => {
    const text = 'group :test do\n  gem "rspec"\n  if x\n';
    expect(extractGemfile({ path: 'Gemfile', text, readFile: () => null })).toEqual({
      dependencies: [gem('rspec', null, 2, { scope: 'test' })],
      errors: [{ line: null, message: '2 block(s) not closed by end (truncated?)' }],
    });
  });

  it('deduplicates identical declarations but keeps differing scopes', () => {
    const text = 'gem "a"\ngem "a"\ngroup :test do\n  gem "a"\nend\n';
    const result = extractGemfile({ path: 'Gemfile', text, readFile: () => null });
    expect(result.dependencies).toEqual([gem('a', null, 1), gem('a', null, 4, { scope: 'test' })]);
  });

  it('stays linear on a hostile line', () => {
    const text = `gem "x", ${'"'.repeat(200_000)}\n${'gem "y",\n'.repeat(10_000)}`;
    const started = performance.now();
    const result = extractGemfile({ path: 'Gemfile', text, readFile: () => null });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.errors.length).toBeGreaterThan(0);
  });

  it.each([
    [[], 'runtime'],
    [['development'], 'development'],
    [['development', 'test'], 'development'],
    [['test'], 'test'],
    [['test', 'production'], 'runtime'],
    [['ci'], 'runtime'],
  ] as const)('scopeOfGroups(%j) = %s', (groups, expected) => {
    expect(scopeOfGroups([...groups])).toBe(expected);
  });

  it.each([
    ['gem "a" # comment', 'gem "a" '],
    ['gem "a#b"', 'gem "a#b"'],
    ["gem 'it\\'s' # x", "gem 'it\\'s' "],
  ])('stripComment(%j)', (line, expected) => {
    expect(stripComment(line)).toBe(expected);
  });
});
