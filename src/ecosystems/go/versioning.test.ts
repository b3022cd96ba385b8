import { describe, expect, it } from 'vitest';
import { isPseudoVersion, parseGoVersion, goVersioning as v } from './versioning';

describe('Go versioning', () => {
  it.each([
    ['v1.2.3', true],
    ['1.2.3', true], // OSV spelling
    ['v1.2.3-rc.1+build.5', true],
    ['v2.3.0+incompatible', true],
    ['v0.0.0-20240927000941-0f3dac36c52b', true],
    ['v1', true], // Go shorthand for v1.0.0
    ['v1.2', true],
    ['v1.2-pre', false], // shorthand may not carry a pre-release
    ['v01.2.3', false],
    ['v1.2.3-01', false], // numeric identifier with a leading zero
    ['v1.2.3-', false],
    ['v1.2.3+', false],
    ['v1.2.3.4', false],
    ['latest', false],
    ['', false],
  ])('isValid(%j) = %s', (version, expected) => {
    expect(v.isValid(version)).toBe(expected);
  });

  it.each([
    ['v1.2.3', '1.2.3', 0],
    ['v1', 'v1.0.0', 0],
    ['v1.2', '1.2.0', 0],
    ['v1.2.3', 'v1.2.4', -1],
    ['v1.10.0', 'v1.9.0', 1],
    ['v1.2.3-rc.1', 'v1.2.3', -1],
    ['v1.2.3-alpha', 'v1.2.3-alpha.1', -1],
    ['v1.2.3-alpha.1', 'v1.2.3-alpha.beta', -1], // numeric < alphanumeric
    ['v1.2.3-alpha.2', 'v1.2.3-alpha.10', -1], // numeric identifiers compare as numbers
    ['v1.2.3-beta', 'v1.2.3-alpha.99', 1],
    ['v2.3.0+incompatible', 'v2.3.0', 0], // build metadata is ignored
    ['v2.3.0+incompatible', 'v2.3.1+incompatible', -1],
    // Pseudo-versions: the three forms order just below the release they precede.
    ['v0.0.0-20191109021931-daa7c04131f5', 'v0.0.0-20200101000000-aaaaaaaaaaaa', -1],
    ['v0.0.0-20240927000941-0f3dac36c52b', 'v0.0.1', -1],
    ['v1.2.4-0.20241212181136-fad1cd13edbd', 'v1.2.3', 1], // built on v1.2.3
    ['v1.2.4-0.20241212181136-fad1cd13edbd', 'v1.2.4', -1],
    ['v1.2.4-0.20241212181136-fad1cd13edbd', 'v1.2.4-rc.1', -1], // 0 < rc
    ['v1.2.3-pre.0.20241212181136-fad1cd13edbd', 'v1.2.3-pre', 1], // built on v1.2.3-pre
    ['v1.2.3-pre.0.20241212181136-fad1cd13edbd', 'v1.2.3-pre.1', -1],
    ['v99999999999999999999.0.0', 'v99999999999999999998.0.0', 1], // no Number overflow
    ['garbage', 'v0.0.0', -1], // invalid sorts first, as in x/mod/semver
    ['v0.0.0', 'garbage', 1],
    ['abc', 'abd', -1],
    ['abc', 'abc', 0],
  ])('compare(%j, %j) = %i', (a, b, expected) => {
    expect(Math.sign(v.compare(a, b))).toBe(expected);
  });

  it('sorts a mixed list the way Go does', () => {
    const list = [
      'v1.0.0',
      'v1.0.1-0.20200101000000-abcdefabcdef',
      'v0.0.0-20190101000000-abcdefabcdef',
      'v1.0.0-rc.1',
      '1.0.1',
      'v0.9.0',
    ];
    expect([...list].sort(v.compare)).toEqual([
      'v0.0.0-20190101000000-abcdefabcdef',
      'v0.9.0',
      'v1.0.0-rc.1',
      'v1.0.0',
      'v1.0.1-0.20200101000000-abcdefabcdef',
      '1.0.1',
    ]);
  });

  it.each([
    ['v1.2.3', false],
    ['v1.2.3-rc.1', true],
    ['v0.0.0-20240927000941-0f3dac36c52b', true],
    ['v2.0.0+incompatible', false],
    ['nonsense', false],
  ])('isPrerelease(%j) = %s', (version, expected) => {
    expect(v.isPrerelease(version)).toBe(expected);
  });

  it.each([
    ['v0.0.0-20240927000941-0f3dac36c52b', true],
    ['v1.2.4-0.20241212181136-fad1cd13edbd', true],
    ['v1.2.3-pre.0.20241212181136-fad1cd13edbd', true],
    ['v2.0.1-0.20241212181136-fad1cd13edbd+incompatible', true],
    ['v1.2.3-rc.1', false],
    ['v1.2.3', false],
    ['v0.0.0-2024092700094-0f3dac36c52b', false], // 13-digit timestamp
  ])('isPseudoVersion(%j) = %s', (version, expected) => {
    expect(isPseudoVersion(version)).toBe(expected);
  });

  it.each([
    ['v1.2.5', '>=1.2.0, <1.3.0', true],
    ['1.2.5', '>= v1.2.0, < v1.3.0', true],
    ['v1.3.0', '>=1.2.0, <1.3.0', false],
    ['v1.3.0-rc.1', '>=1.2.0, <1.3.0', true], // pure ordering: no npm-style pre-release exclusion
    ['v1.2.4-0.20241212181136-fad1cd13edbd', '>=1.2.0, <1.3.0', true], // pseudo-versions too
    ['v2.3.0+incompatible', '=2.3.0', true],
    ['v1.2.3', 'v1.2.3', true],
    ['v1.2.3', '1.2.3', true],
    ['v1.2.3', '!=1.2.3', false],
    ['v1.0.0', '<1.0.0 || >=2.0.0', false],
    ['v2.1.0', '<1.0.0 || >=2.0.0', true],
    ['v9.9.9', '*', true],
    ['v1.2.3', '>=nonsense', false],
    ['nonsense', '*', false],
    ['v1.2.3', '', false],
  ])('satisfies(%j, %j) = %s', (version, range, expected) => {
    expect(v.satisfies(version, range)).toBe(expected);
  });

  it.each([
    ['v1.2.3', false],
    ['1.2.3', false],
    ['>=1.2.0, <1.3.0', true],
    ['<v1.2', true],
    ['*', true],
    ['latest', false],
    ['', false],
  ])('isRange(%j) = %s', (spec, expected) => {
    expect(v.isRange(spec)).toBe(expected);
  });

  it('parses the parts and never throws on hostile input', () => {
    expect(parseGoVersion('v1.2.3-rc.1+incompatible')).toEqual({
      major: '1',
      minor: '2',
      patch: '3',
      prerelease: ['rc', '1'],
      build: 'incompatible',
    });
    expect(parseGoVersion(`v1.2.3-${'a.'.repeat(50_000)}`)).toBeNull();
    expect(() => v.compare('\u0000', 'v1')).not.toThrow();
  });
});
