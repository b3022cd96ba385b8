import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DependencyScope, DependencySource, ExtractedDependency } from '../types';
import { extractGemfileLock, gemfileLockExtractor } from './extract-gemfile-lock';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');

function spec(
  name: string,
  version: string,
  line: number,
  options: {
    scope?: DependencyScope;
    direct?: boolean;
    parents?: string[];
    source?: DependencySource;
    platform?: string;
  } = {},
): ExtractedDependency {
  return {
    name,
    version,
    purl: `pkg:gem/${name}@${version}${options.platform ? `?platform=${options.platform}` : ''}`,
    scope: options.scope ?? 'runtime',
    direct: options.direct ?? false,
    resolution: 'resolved',
    line,
    parents: options.parents ?? [],
    source: options.source ?? { kind: 'registry' },
  };
}

const FORKED: DependencySource = {
  kind: 'git',
  url: 'https://github.com/example/forked-gem.git',
  ref: '0123456789abcdef0123456789abcdef01234567',
};
const BILLING: DependencySource = { kind: 'path', path: 'engines/billing' };

describe('rubygems/gemfile-lock', () => {
  it('claims Gemfile.lock and gems.locked only', () => {
    expect(gemfileLockExtractor.matches('Gemfile.lock')).toBe(true);
    expect(gemfileLockExtractor.matches('sub/gems.locked')).toBe(true);
    expect(gemfileLockExtractor.matches('Gemfile')).toBe(false);
  });

  it('reads GIT, PATH and GEM specs, merges platform variants, scopes from the sibling Gemfile', () => {
    const asked: string[] = [];
    const result = extractGemfileLock({
      path: 'app/Gemfile.lock',
      text: fixture('all-sections.lock'),
      readFile: (p) => {
        asked.push(p);
        return p === 'app/Gemfile' ? fixture('all-sections.gemfile') : null;
      },
    });
    expect(asked).toEqual(['app/Gemfile']);
    expect(result).toEqual({
      dependencies: [
        spec('forked-gem', '0.3.0', 6, { direct: true, source: FORKED }),
        spec('billing', '0.1.0', 12, { direct: true, source: BILLING }),
        spec('capybara', '3.40.0', 18, { direct: true, scope: 'test' }),
        // Two platform variants of one version: one entry, no platform qualifier.
        spec('nokogiri', '1.16.0', 21, { scope: 'test', parents: ['capybara'] }),
        spec('racc', '1.8.1', 25, { scope: 'test', parents: ['nokogiri'] }),
        spec('rack', '3.1.7', 26, { parents: ['forked-gem', 'capybara', 'rails'] }),
        spec('rails', '7.2.1', 27, { direct: true, parents: ['billing'] }),
        spec('rspec-core', '3.13.0', 29, { direct: true, scope: 'development' }),
        // Locked for one platform only: the purl says which.
        spec('sqlite3', '2.0.4', 30, { direct: true, platform: 'x86_64-linux-gnu' }),
      ],
      errors: [],
    });
  });

  it('without a Gemfile everything is runtime', () => {
    const result = extractGemfileLock({
      path: 'Gemfile.lock',
      text: fixture('all-sections.lock'),
      readFile: () => null,
    });
    expect(new Set(result.dependencies.map((d) => d.scope))).toEqual(new Set(['runtime']));
    expect(result.dependencies).toHaveLength(9);
  });

  it('skips and reports malformed lines, keeping the rest', () => {
    const result = extractGemfileLock({
      path: 'Gemfile.lock',
      text: fixture('bad-lines.lock'),
      readFile: () => null,
    });
    expect(result).toEqual({
      dependencies: [
        spec('good', '1.0.0', 6, { direct: true }),
        spec('child', '2.0.0', 9, { parents: ['good'] }),
      ],
      errors: [
        { line: 1, message: 'indented line outside any section' },
        { line: 4, message: 'unexpected line in GEM' },
        { line: 8, message: 'unexpected line in GEM specs' },
        { line: 10, message: 'invalid version for weird' },
        { line: 15, message: 'unexpected line in DEPENDENCIES' },
      ],
    });
  });

  it('reads the non-default-source `!` wherever Bundler writes it in DEPENDENCIES', () => {
    const result = extractGemfileLock({
      path: 'Gemfile.lock',
      text: fixture('source-marker-placements.lock'),
      readFile: () => null,
    });
    const RAILS: DependencySource = {
      kind: 'git',
      url: 'https://github.com/rails/rails.git',
      ref: '5f0d9e1c8a7b6d5e4f3a2b1c0d9e8f7a6b5c4d3e',
    };
    const ENGINE: DependencySource = { kind: 'path', path: 'engines/billing' };
    expect(result).toEqual({
      dependencies: [
        spec('activesupport', '8.1.0.alpha', 6, { parents: ['rails'], source: RAILS }),
        // `rails (~> 8.1.0.alpha)!`: requirement, then the marker.
        spec('rails', '8.1.0.alpha', 8, { direct: true, parents: ['billing'], source: RAILS }),
        // `billing!`: the marker with no requirement.
        spec('billing', '0.1.0', 14, { direct: true, source: ENGINE }),
        // `internal-auth (>= 2.1, < 3)!`: several constraints, then the marker.
        spec('internal-auth', '2.4.0', 20, { direct: true }),
        // `private-sdk (~> 3.32)!`: a gem of a second rubygems source.
        spec('private-sdk', '3.32.1', 21, { direct: true }),
        spec('concurrent-ruby', '1.3.4', 26, { direct: true, parents: ['activesupport'] }),
        spec('rake', '13.2.1', 27, { direct: true }),
        spec('rspec', '3.13.0', 28, { direct: true }),
      ],
      errors: [],
    });
  });

  it('accepts `name! (req)` and rejects a doubled, spaced or trailing marker', () => {
    const result = extractGemfileLock({
      path: 'Gemfile.lock',
      text: fixture('source-marker-malformed.lock'),
      readFile: () => null,
    });
    expect(result.dependencies.filter((d) => d.direct).map((d) => d.name)).toEqual(['legacy']);
    expect(result.errors).toEqual([
      { line: 11, message: 'unexpected line in DEPENDENCIES' },
      { line: 12, message: 'unexpected line in DEPENDENCIES' },
      { line: 13, message: 'unexpected line in DEPENDENCIES' },
    ]);
  });

  it('a gemspec project: PATH `remote: .` is the project itself (scope self, not direct)', () => {
    const result = extractGemfileLock({
      path: 'Gemfile.lock',
      text: fixture('gemspec-project.lock'),
      readFile: () => null,
    });
    expect(result).toEqual({
      dependencies: [
        {
          ...spec('mygem', '0.4.2', 4, { source: { kind: 'path', path: '.' } }),
          scope: 'self',
        },
        spec('faraday', '2.12.0', 10, { parents: ['mygem'] }),
        spec('rake', '13.2.1', 11, { direct: true }),
      ],
      errors: [],
    });
  });

  it('reports a file that is not a Gemfile.lock as one whole-file error', () => {
    const result = extractGemfileLock({
      path: 'Gemfile.lock',
      text: fixture('not-a-lockfile.txt'),
      readFile: () => null,
    });
    expect(result).toEqual({
      dependencies: [],
      errors: [{ line: null, message: 'not a Gemfile.lock: no sections found' }],
    });
  });

  it('uses gems.rb beside gems.locked and handles CRLF', () => {
    const asked: string[] = [];
    const text =
      'GEM\r\n  remote: https://rubygems.org/\r\n  specs:\r\n    rake (13.2.1)\r\n\r\nDEPENDENCIES\r\n  rake\r\n';
    const result = extractGemfileLock({
      path: 'gems.locked',
      text,
      readFile: (p) => {
        asked.push(p);
        return 'group :development do\n  gem "rake"\nend\n';
      },
    });
    expect(asked).toEqual(['gems.rb']);
    expect(result).toEqual({
      dependencies: [spec('rake', '13.2.1', 4, { direct: true, scope: 'development' })],
      errors: [],
    });
  });

  it('describes the Bundler version', () => {
    const input = {
      path: 'Gemfile.lock',
      text: fixture('all-sections.lock'),
      readFile: () => null,
    };
    expect(gemfileLockExtractor.describe?.(input)).toBe('Gemfile.lock (bundler 2.5.16)');
  });
});
