import { expect, it } from 'vitest';
import { corpusRunner, describeCorpus } from '../../../test/support/corpus';
import { rubygems } from './index';

const run = corpusRunner(rubygems);

describeCorpus('RubyGems', () => {
  // SOURCES.md counts 236 spec lines. ffi and nokogiri are locked for 8 platforms each and
  // tailwindcss-ruby for 7 (plus its plain variant): platform variants of one version are one
  // dependency, so 236 - 7 - 7 - 6 = 216.
  it('maybe/Gemfile.lock: 216 gems, no errors', () => {
    const { extractor, result, ms } = run('maybe/Gemfile.lock');
    expect(extractor.name).toBe('rubygems/gemfile-lock');
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
    const { extractor, result, ms } = run('maybe/Gemfile');
    expect(extractor.name).toBe('rubygems/gemfile');
    expect(result.errors).toEqual([]);
    expect(result.dependencies).toHaveLength(74);
    expect(ms).toBeLessThan(1000);
  });
});
