import { describe, expect, it } from 'vitest';
import { npmVersioning as v } from './versioning';

describe('npm versioning (SemVer 2 as npm implements it)', () => {
  it.each([
    ['1.2.3', true],
    ['v1.2.3', true],
    ['1.2.3-beta.1+build.5', true],
    ['  1.2.3  ', true],
    ['1.2', false],
    ['01.2.3', false],
    ['1.2.3.4', false],
    ['^1.2.3', false],
    ['latest', false],
    ['', false],
  ])('isValid(%j) = %s', (version, expected) => {
    expect(v.isValid(version)).toBe(expected);
  });

  // Each list is in ascending SemVer 2 precedence (semver.org §11 and its example chain).
  it.each([
    [
      [
        '1.0.0-alpha',
        '1.0.0-alpha.1',
        '1.0.0-alpha.beta',
        '1.0.0-beta',
        '1.0.0-beta.2',
        '1.0.0-beta.11',
        '1.0.0-rc.1',
        '1.0.0',
      ],
    ],
    [['1.9.0', '1.10.0', '1.11.0', '2.0.0']],
    [['0.0.1', '0.1.0', '1.0.0-0', '1.0.0']],
  ])('orders %j', (ascending) => {
    const shuffled = [...ascending].reverse();
    expect(shuffled.sort(v.compare)).toEqual(ascending);
  });

  it('ignores build metadata, accepts a leading v, never throws on junk', () => {
    expect(v.compare('1.0.0+build.1', '1.0.0+build.2')).toBe(0);
    expect(v.compare('v2.0.0', '2.0.0')).toBe(0);
    expect(v.compare('1.0.0', 'not-a-version')).toBe(-1);
    expect(v.compare('not-a-version', '1.0.0')).toBe(1);
    expect(v.compare('b', 'a')).toBe(1);
    expect(v.compare('junk', 'junk')).toBe(0);
  });

  it.each([
    ['1.0.0-rc.1', true],
    ['1.0.0-0', true],
    ['1.0.0', false],
    ['1.0.0+build', false],
    ['nonsense', false],
  ])('isPrerelease(%j) = %s', (version, expected) => {
    expect(v.isPrerelease(version)).toBe(expected);
  });

  it.each([
    ['1.2.3', '^1.2.0', true],
    ['2.0.0', '^1.2.0', false],
    ['0.2.5', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.5.0', '1.x', true],
    ['3.0.0', '>=1.0.0 <2.0.0 || >=3.0.0', true],
    ['1.5.0', '1.0.0 - 2.0.0', true],
    ['4.0.0', '*', true],
    ['4.0.0', '', true],
    // npm semantics: a pre-release only matches a range naming a pre-release of the same tuple.
    ['1.3.0-beta.1', '^1.2.0', false],
    ['1.2.4-beta.1', '>=1.2.4-alpha <1.3.0', true],
    ['1.2.5-beta.1', '>=1.2.4-alpha <1.3.0', false],
    ['2.0.0-rc.1', '*', false],
    ['1.2.3', 'not a range (((', false],
    ['garbage', '^1.0.0', false],
  ])('satisfies(%j, %j) = %s', (version, range, expected) => {
    expect(v.satisfies(version, range)).toBe(expected);
  });

  it.each([
    ['^1.2.3', true],
    ['~1.2', true],
    ['1.x', true],
    ['*', true],
    ['>=1.0.0 <2', true],
    ['1.2.3', false],
    ['v1.2.3', false],
    ['=1.2.3', false],
    ['latest', false],
    ['git+https://example.com/x.git', false],
  ])('isRange(%j) = %s', (spec, expected) => {
    expect(v.isRange(spec)).toBe(expected);
  });
});
