import { describe, expect, it } from 'vitest';
import {
  compareNuGetVersions,
  exactNuGetVersion,
  isNuGetPrerelease,
  isNuGetRange,
  normaliseNuGetVersion,
  nugetSatisfies,
  nugetVersioning,
  parseNuGetRange,
} from './versioning';

// Cases follow NuGet.Versioning's documented rules (docs "Package versioning" and
// VersionComparerTests): four parts, normalisation, case-insensitive labels, metadata ignored.
describe('NuGet version ordering', () => {
  it.each([
    ['1.0', '1.0.0'],
    ['1.0.0', '1.0.0.0'],
    ['1', '1.0.0.0'],
    ['01.02.03', '1.2.3'],
    ['1.0.0-BETA', '1.0.0-beta'],
    ['1.0.0-Beta.1', '1.0.0-bEtA.1'],
    ['1.0.0+build.1', '1.0.0+build.2'],
    ['1.0.0-rc.1+abc', '1.0.0-RC.1'],
    ['1.0.0-alpha.01', '1.0.0-alpha.1'],
  ])('%s == %s', (a, b) => {
    expect(compareNuGetVersions(a, b)).toBe(0);
    expect(compareNuGetVersions(b, a)).toBe(0);
  });

  it.each([
    ['1.0.0', '1.0.1'],
    ['1.0.0', '1.0.0.1'],
    ['1.0.0.9', '1.0.0.10'],
    ['1.9', '1.10'],
    ['1.0.0-alpha', '1.0.0'],
    ['1.0.0-alpha', '1.0.0-alpha.1'],
    ['1.0.0-alpha.1', '1.0.0-alpha.beta'],
    ['1.0.0-alpha.beta', '1.0.0-beta'],
    ['1.0.0-beta', '1.0.0-beta.2'],
    ['1.0.0-beta.2', '1.0.0-beta.11'],
    ['1.0.0-beta.11', '1.0.0-rc.1'],
    ['1.0.0-rc.1', '1.0.0'],
    // SemVer 1 style labels compare as whole strings
    ['1.0.0-beta01', '1.0.0-beta1'],
    ['1.0.0-beta10', '1.0.0-beta2'],
    ['1.0.0-a-b', '1.0.0-a0'],
    ['4.0.2.5', '4.0.2.50'],
    ['2026.8.0', '2026.10.0'],
  ])('%s < %s', (a, b) => {
    expect(compareNuGetVersions(a, b)).toBe(-1);
    expect(compareNuGetVersions(b, a)).toBe(1);
  });

  it('sorts, putting invalid text first', () => {
    const list = ['1.0.0', 'not-a-version', '1.0.0-rc.1', '0.9', '1.0.0.1', '1.0.0-alpha'];
    expect([...list].sort(compareNuGetVersions)).toEqual([
      'not-a-version',
      '0.9',
      '1.0.0-alpha',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.0.1',
    ]);
  });

  it.each([
    ['1.0', '1.0.0'],
    ['1.0.0.0', '1.0.0'],
    ['1.0.0.4', '1.0.0.4'],
    ['01.2.03-Beta.1+sha.5', '1.2.3-Beta.1'],
    ['1.0.0.0.0', null],
    ['v1.0', null],
  ])('normalise(%s) = %s', (version, expected) => {
    expect(normaliseNuGetVersion(version)).toBe(expected);
  });

  it.each([
    ['1.0', true],
    ['1.2.3.4', true],
    ['1.0.0-beta.1+meta', true],
    [' 2.0.0 ', true],
    ['1.2.3.4.5', false],
    ['1.0-', false],
    ['1.0.0-beta..1', false],
    ['[1.0]', false],
    ['', false],
  ])('isValid(%j) = %s', (version, valid) => {
    expect(nugetVersioning.isValid(version)).toBe(valid);
  });

  it.each([
    ['1.0.0-beta', true],
    ['1.0.0-rc.1+meta', true],
    ['1.0.0+meta', false],
    ['1.0.0', false],
    ['junk', false],
  ])('isPrerelease(%s) = %s', (version, expected) => {
    expect(isNuGetPrerelease(version)).toBe(expected);
  });
});

describe('NuGet version ranges', () => {
  it.each([
    ['1.0', '1.0', true],
    ['2.5', '1.0', true],
    ['0.9', '1.0', false],
    ['1.0', '(1.0,)', false],
    ['1.0.1', '(1.0,)', true],
    ['1.0', '[1.0]', true],
    ['1.0.0.0', '[1.0]', true],
    ['1.0.1', '[1.0]', false],
    ['1.0', '(,1.0]', true],
    ['1.0.1', '(,1.0]', false],
    ['0.5', '(,1.0)', true],
    ['1.0', '(,1.0)', false],
    ['1.0', '[1.0,2.0)', true],
    ['1.9.9', '[1.0,2.0)', true],
    ['2.0', '[1.0,2.0)', false],
    ['2.0.0-beta', '[1.0,2.0)', true],
    ['2.0', '[1.0, 2.0]', true],
    ['8.0.2', '[8.0.2, 8.0.2]', true],
    ['1.5.0', '1.*', true],
    ['1.5.0-beta', '1.*', false],
    ['2.0.0', '1.*', false],
    ['1.2.9', '1.2.*', true],
    ['1.3.0', '1.2.*', false],
    ['9.9.9', '*', true],
    ['9.9.9-rc', '*-*', true],
    ['1.0.0-beta.3', '1.0.0-*', true],
    ['1.0.0', '1.0.0-*', true],
    ['1.0.1-beta', '1.0.0-*', false],
    ['1.0.0-beta2', '1.0.0-beta*', true],
    ['1.0.0-alpha', '1.0.0-beta*', false],
    ['1.4.0-preview', '1.*-*', true],
    ['1.5', '[1.*, 2.0)', true],
    ['1.5', 'garbage', false],
    ['garbage', '[1.0,2.0)', false],
  ])('satisfies(%s, %s) = %s', (version, range, expected) => {
    expect(nugetSatisfies(version, range)).toBe(expected);
  });

  it.each(['(1.0)', '[1.0)', '[2.0,1.0]', '(1.0,1.0]', '[,]', '[1.0,2.0,3.0]', '[1.0', '', 'x'])(
    'rejects %j',
    (spec) => {
      expect(parseNuGetRange(spec)).toBeNull();
    },
  );

  it.each([
    ['[1.0,2.0)', true],
    ['(1.0,)', true],
    ['[1.0]', true],
    ['1.*', true],
    ['1.0', false],
    ['1.0.0-beta', false],
  ])('isRange(%s) = %s', (spec, expected) => {
    expect(isNuGetRange(spec)).toBe(expected);
  });

  it.each([
    ['[8.0.2]', '8.0.2'],
    ['[8.0.2, 8.0.2]', '8.0.2'],
    ['[1.0, 1.0.0]', '1.0'],
    ['[8.0.2, )', null],
    ['8.0.2', null],
    ['[1.*]', null],
  ])('exact(%s) = %s', (spec, expected) => {
    expect(exactNuGetVersion(spec)).toBe(expected);
  });
});
