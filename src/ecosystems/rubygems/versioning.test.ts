import { describe, expect, it } from 'vitest';
import { bump, parseGemVersion, release, rubygemsVersioning as v } from './versioning';

const text = (version: string, f: typeof bump) =>
  f(parseGemVersion(version) ?? (parseGemVersion('0') as never)).version;

describe('RubyGems versioning', () => {
  it.each([
    ['1.2.3', true],
    ['1', true],
    ['1.0.0.pre.1', true],
    ['1.0.0-rc1', true], // `-` reads as `.pre.`
    ['1.0.0b1', true],
    ['2.0.0.20240101', true],
    ['1.16.0-x86_64-linux', false], // '_' is not allowed: Bundler splits the platform off first
    ['', false],
    ['a.1', false],
    ['1..2', false],
    ['1.2.3 junk', false],
  ])('isValid(%j) = %s', (version, expected) => {
    expect(v.isValid(version)).toBe(expected);
  });

  it.each([
    ['1.0', '1', 0], // trailing zeros are ignored
    ['1.0.0', '1', 0],
    ['1.0.a', '1.a', 0], // …before and after the first string segment
    ['1.2.3', '1.2.10', -1],
    ['1.10', '1.9', 1],
    ['1.0.0.pre', '1.0.0', -1], // a letter segment sorts before a number
    ['1.0.a', '1.0', -1],
    ['1.0.0.beta', '1.0.0.alpha', 1], // string segments compare as strings
    ['1.0.0.rc1', '1.0.0.rc.1', 0], // `rc1` splits into "rc", 1
    ['1.0.0b1', '1.0.0.b.1', 0],
    ['1.0.0-rc1', '1.0.0.pre.rc1', 0],
    ['1.0.0.beta.2', '1.0.0.beta.10', -1],
    ['1.0.0.pre', '1.0.0.pre.1', -1],
    ['01.2', '1.2', 0],
    ['1.0.0.1', '1.0.1', -1],
    ['123456789012345678901234567890', '123456789012345678901234567891', -1],
    ['junk', '0.0.1', -1],
    ['0.0.1', 'junk', 1],
  ])('compare(%j, %j) = %i', (a, b, expected) => {
    expect(Math.sign(v.compare(a, b))).toBe(expected);
  });

  it.each([
    ['1.2.3', false],
    ['1.2.3.pre', true],
    ['1.2.3a', true],
    ['1.2.3-1', true], // `-` becomes `.pre.`
    ['nonsense', false],
  ])('isPrerelease(%j) = %s', (version, expected) => {
    expect(v.isPrerelease(version)).toBe(expected);
  });

  it.each([
    ['1.2.3', '1.3'],
    ['1.2', '2'],
    ['1', '2'],
    ['1.2.3.pre.1', '1.3'],
    ['1.9', '2'],
  ])('bump(%j) = %j', (version, expected) => {
    expect(text(version, bump)).toBe(expected);
  });

  it.each([
    ['1.2.3.pre.1', '1.2.3'],
    ['1.2.3', '1.2.3'],
    ['2.0.0.rc1', '2.0.0'],
  ])('release(%j) = %j', (version, expected) => {
    expect(text(version, release)).toBe(expected);
  });

  it.each([
    // Pessimistic operator: >= x and < bump(x).
    ['1.2.9', '~> 1.2.3', true],
    ['1.3.0', '~> 1.2.3', false],
    ['1.2.2', '~> 1.2.3', false],
    ['1.9', '~> 1.2', true],
    ['2.0', '~> 1.2', false],
    ['1.99', '~> 1', true], // ~> 1 is >= 1, < 2
    ['2.0.0.pre', '~> 1.2', false], // release 2.0.0 is not < 2
    ['1.3.0.pre', '~> 1.2', true],
    ['1.2.3.rc1', '~> 1.2.3', false], // below 1.2.3
    ['1.2.4.rc1', '~> 1.2.3', true], // pre-releases are not excluded by Gem::Requirement
    // Other operators, default `=`, comma-separated AND.
    ['1.0', '= 1', true],
    ['1.0', '1', true],
    ['1.0.1', '1', false],
    ['1.0.1', '!= 1.0.0', true],
    ['1.0.0', '!= 1.0', false],
    ['2.2.4', '>= 2.2.4, < 3.2', true],
    ['3.2.0', '>= 2.2.4, < 3.2', false],
    ['3.1.9', '>2.2.4,<3.2', true],
    ['1.5', '~> 1.2, >= 1.2.3', true],
    ['1.2.1', '~> 1.2, >= 1.2.3', false],
    ['1.0', '<= 1.0.0', true],
    ['1.0.0.1', '> 1', true],
    // Invalid input never matches and never throws.
    ['1.0', '~> nope', false],
    ['1.0', '', false],
    ['1.0', '=> 1.0', false],
    ['nope', '>= 0', false],
  ])('satisfies(%j, %j) = %s', (version, range, expected) => {
    expect(v.satisfies(version, range)).toBe(expected);
  });

  it.each([
    ['1.2.3', false],
    ['= 1.2.3', false],
    ['~> 1.2', true],
    ['>= 1.0, < 2', true],
    ['= 1.0, = 1.0', true],
    ['!= 1.0', true],
    ['nope nope', false],
  ])('isRange(%j) = %s', (spec, expected) => {
    expect(v.isRange(spec)).toBe(expected);
  });
});
