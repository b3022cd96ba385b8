import { existsSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA_MISSING, sharedDataDir } from '../../../test/support/shared-data';
import type { ExtractionResult } from '../types';
import { rubygems } from './index';

const root = sharedDataDir ? join(sharedDataDir, 'lockfiles') : '';

function readTreeFile(path: string): string | null {
  const full = normalize(join(root, path));
  if (!full.startsWith(`${root}/`) || !existsSync(full)) return null;
  return readFileSync(full, 'utf8');
}

function run(path: string): { name: string; result: ExtractionResult; ms: number } {
  const extractor = rubygems.extractors.find((e) => e.matches(path));
  if (!extractor) throw new Error(`no RubyGems extractor claims ${path}`);
  const text = readFileSync(join(root, path), 'utf8');
  const started = performance.now();
  const result = extractor.extract({ path, text, readFile: readTreeFile });
  return { name: extractor.name, result, ms: performance.now() - started };
}

describe.skipIf(!sharedDataDir)(
  `RubyGems real-world corpus${sharedDataDir ? '' : ` (${SHARED_DATA_MISSING})`}`,
  () => {
    // SOURCES.md counts 236 spec lines. ffi and nokogiri are locked for 8 platforms each and
    // tailwindcss-ruby for 7 (plus its plain variant): platform variants of one version are one
    // dependency, so 236 - 7 - 7 - 6 = 216.
    it('maybe/Gemfile.lock: 216 gems, no errors', () => {
      const { name, result, ms } = run('maybe/Gemfile.lock');
      expect(name).toBe('rubygems/gemfile-lock');
      expect(result.errors).toEqual([]);
      expect(result.dependencies).toHaveLength(216);
      // DEPENDENCIES lists 73 gems; tzinfo-data is only for windows/jruby, which are not in
      // PLATFORMS, so Bundler locked no spec for it.
      expect(result.dependencies.filter((d) => d.direct)).toHaveLength(72);
      expect(result.dependencies.some((d) => d.name === 'tzinfo-data')).toBe(false);
      const byName = new Map(result.dependencies.map((d) => [d.name, d]));
      expect(byName.get('nokogiri')?.purl).toBe('pkg:gem/nokogiri@1.18.8');
      expect(byName.get('lucide-rails')?.source.kind).toBe('git');
      // Groups from the sibling Gemfile: capybara is test-only, web-console development-only.
      expect(byName.get('capybara')?.scope).toBe('test');
      expect(byName.get('web-console')?.scope).toBe('development');
      expect(byName.get('rails')?.scope).toBe('runtime');
      expect(ms).toBeLessThan(1000);
    });

    // 73 gems plus dotenv-rails declared a second time in another group.
    it('maybe/Gemfile: 74 declarations, no errors', () => {
      const { name, result, ms } = run('maybe/Gemfile');
      expect(name).toBe('rubygems/gemfile');
      expect(result.errors).toEqual([]);
      expect(result.dependencies).toHaveLength(74);
      expect(ms).toBeLessThan(1000);
    });
  },
);
