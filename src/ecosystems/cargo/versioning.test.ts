import { describe, expect, it } from 'vitest';
import { toNpmRange, cargoVersioning as v } from './versioning';

describe('Cargo versioning', () => {
  it.each([
    ['1.2.3', true],
    ['0.0.0', true],
    ['1.0.0-alpha.1+build.7', true],
    ['v1.2.3', false], // Cargo has no leading v
    ['=1.2.3', false],
    ['1.2', false], // a version (not a requirement) needs three parts
    ['01.2.3', false],
    ['', false],
  ])('isValid(%j) = %s', (version, expected) => {
    expect(v.isValid(version)).toBe(expected);
  });

  it.each([
    ['1.0.0', '1.0.1', -1],
    ['1.10.0', '1.9.0', 1],
    ['1.0.0-alpha', '1.0.0', -1],
    ['1.0.0-alpha', '1.0.0-alpha.1', -1],
    ['1.0.0-alpha.1', '1.0.0-alpha.beta', -1],
    ['1.0.0-beta.2', '1.0.0-beta.11', -1],
    ['1.0.0-rc.1', '1.0.0-beta.11', 1],
    ['1.0.0+build.1', '1.0.0+build.2', 0], // OSV / SemVer 2: build metadata does not order
    ['junk', '0.0.1', -1],
    ['0.0.1', 'junk', 1],
  ])('compare(%j, %j) = %i', (a, b, expected) => {
    expect(Math.sign(v.compare(a, b))).toBe(expected);
  });

  it.each([
    // Bare requirements are caret requirements.
    ['1.2.3', '1.2.3', true],
    ['1.9.0', '1.2.3', true],
    ['2.0.0', '1.2.3', false],
    ['1.2.2', '1.2.3', false],
    ['1.9.9', '1.2', true],
    ['1.9.9', '1', true],
    // Caret on 0.x: the first non-zero part is the compatibility boundary.
    ['0.2.9', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['0.0.3', '^0.0.3', true],
    ['0.0.4', '^0.0.3', false],
    ['0.0.9', '^0.0', true],
    ['0.1.0', '^0.0', false],
    ['0.9.0', '^0', true],
    ['0.9.0', '0.2', false],
    // Tilde.
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.3.0', '~1.2', false],
    ['1.9.0', '~1', true],
    // Wildcards.
    ['7.7.7', '*', true],
    ['1.9.0', '1.*', true],
    ['2.0.0', '1.*', false],
    ['1.2.9', '1.2.*', true],
    ['1.3.0', '1.2.*', false],
    ['1.2.9', '=1.2.*', true],
    // Comparison operators, partial versions as in the semver crate.
    ['1.2.3', '=1.2.3', true],
    ['1.2.4', '=1.2.3', false],
    ['1.2.9', '=1.2', true],
    ['1.3.0', '>1.2', true],
    ['1.2.9', '>1.2', false],
    ['1.2.9', '<=1.2', true],
    ['1.3.0', '<=1.2', false],
    ['1.1.9', '<1.2', true],
    ['1.2.0', '>=1.2', true],
    // Comma-separated AND, with or without spaces after the operator.
    ['1.4.0', '>=1.2, <1.5', true],
    ['1.5.0', '>=1.2, <1.5', false],
    ['1.4.0', '>= 1.2.0, < 1.5.0', true],
    // Pre-releases only match a comparator naming the same major.minor.patch with a pre-release.
    ['1.3.0-alpha.1', '>=1.2.0', false],
    ['1.3.0-alpha.2', '>=1.3.0-alpha.1', true],
    ['1.3.0-beta', '^1.3.0-alpha', true],
    ['1.4.0-alpha', '^1.3.0-alpha', false],
    ['1.3.0', '^1.3.0-alpha', true],
    // Invalid input never matches and never throws.
    ['1.2.3', '', false],
    ['1.2.3', '^^1', false],
    ['1.2.3', '>= 1.2 < 2', false], // the semver crate requires commas
    ['1.2.3', '1.2 || 2.0', false], // no || in Cargo
    ['1.2.3', '>=1.*', false], // wildcards only bare or after =
    ['1.2.3', '1.2-alpha', false], // pre-release needs a full version
    ['nope', '*', false],
  ])('satisfies(%j, %j) = %s', (version, range, expected) => {
    expect(v.satisfies(version, range)).toBe(expected);
  });

  it.each([
    ['1.2', '^1.2'],
    ['>= 1.2, <1.5', '>=1.2 <1.5'],
    ['*', '*'],
    ['1.*.*', '1.x'],
    ['1.*.3', null],
    ['=1.2.3-rc.1', '=1.2.3-rc.1'],
  ])('toNpmRange(%j) = %j', (requirement, expected) => {
    expect(toNpmRange(requirement)).toBe(expected);
  });

  it.each([
    ['1.0.0-alpha', true],
    ['1.0.0', false],
    ['1.0.0+build', false],
    ['garbage', false],
  ])('isPrerelease(%j) = %s', (version, expected) => {
    expect(v.isPrerelease(version)).toBe(expected);
  });

  it.each([
    ['=1.2.3', false], // the only exact form
    ['= 1.2.3', false],
    ['1.2.3', true], // bare means ^1.2.3
    ['^1.2.3', true],
    ['=1.2', true],
    ['>=1, <2', true],
    ['*', true],
    ['not a requirement', false],
  ])('isRange(%j) = %s', (spec, expected) => {
    expect(v.isRange(spec)).toBe(expected);
  });
});
