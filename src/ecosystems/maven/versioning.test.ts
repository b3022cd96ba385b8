import { describe, expect, it } from 'vitest';
import {
  canonicalMavenVersion,
  compareMavenVersions,
  isMavenPrerelease,
  isMavenRange,
  isValidMavenVersion,
  mavenSatisfies,
  parseMavenRange,
} from './versioning';

// Tables from Maven's ComparableVersionTest (maven-artifact 3.8) and the POM reference's
// "Version Order Specification" examples.
const QUALIFIER_ORDER = [
  '1-alpha2snapshot',
  '1-alpha2',
  '1-alpha-123',
  '1-beta-2',
  '1-beta123',
  '1-m2',
  '1-m11',
  '1-rc',
  '1-cr2',
  '1-rc123',
  '1-SNAPSHOT',
  '1',
  '1-sp',
  '1-sp2',
  '1-sp123',
  '1-abc',
  '1-def',
  '1-pom-1',
  '1-1-snapshot',
  '1-1',
  '1-2',
  '1-123',
];

const NUMBER_ORDER = [
  '2.0',
  '2-1',
  '2.0.a',
  '2.0.0.a',
  '2.0.2',
  '2.0.123',
  '2.1.0',
  '2.1-a',
  '2.1b',
  '2.1-c',
  '2.1-1',
  '2.1.0.1',
  '2.2',
  '2.123',
  '11.a2',
  '11.a11',
  '11.b2',
  '11.b11',
  '11.m2',
  '11.m11',
  '11',
  '11.a',
  '11b',
  '11c',
  '11m',
];

function expectAscending(list: string[]): void {
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      expect([list[i], list[j], compareMavenVersions(list[i]!, list[j]!)]).toEqual([
        list[i],
        list[j],
        -1,
      ]);
      expect(compareMavenVersions(list[j]!, list[i]!)).toBe(1);
    }
  }
}

describe('Maven ComparableVersion ordering', () => {
  it('orders qualifiers: alpha < beta < milestone < rc = cr < snapshot < "" < sp < unknown', () => {
    expectAscending(QUALIFIER_ORDER);
  });

  it('orders numbers, padding and digit/letter transitions', () => {
    expectAscending(NUMBER_ORDER);
  });

  it.each([
    ['1', '1'],
    ['1', '1.0'],
    ['1', '1.0.0'],
    ['1.0', '1.0.0'],
    ['1', '1-0'],
    ['1', '1.0-0'],
    ['1.0', '1.0-0'],
    ['1a', '1-a'],
    ['1a', '1.0-a'],
    ['1a', '1.0.0-a'],
    ['1.0a', '1-a'],
    ['1.0.0a', '1-a'],
    ['1x', '1-x'],
    ['1x', '1.0.0-x'],
    ['1.0x', '1-x'],
    ['1ga', '1'],
    ['1release', '1'],
    ['1final', '1'],
    ['1cr', '1rc'],
    ['1a1', '1-alpha-1'],
    ['1b2', '1-beta-2'],
    ['1m3', '1-milestone-3'],
    ['1X', '1x'],
    ['1A', '1a'],
    ['1GA', '1'],
    ['1RELeaSE', '1'],
    ['1FINAL', '1'],
    ['1cR', '1rC'],
    ['1m3', '1MILESTONE3'],
    ['1-abcdefghijklmnopqrstuvwxyz', '1-ABCDEFGHIJKLMNOPQRSTUVWXYZ'],
    ['1.0.0', '1-ga'],
    ['1.ga', '1-0'],
    ['0000000000000000001', '1'],
    ['0000000000000000000', '0'],
    ['1.0.0.RELEASE', '1'],
  ])('%s == %s', (a, b) => {
    expect(compareMavenVersions(a, b)).toBe(0);
    expect(compareMavenVersions(b, a)).toBe(0);
  });

  it.each([
    ['1', '2'],
    ['1.5', '2'],
    ['1', '2.5'],
    ['1.0', '1.1'],
    ['1.0.0', '1.1'],
    ['1.0.1', '1.1'],
    ['1.1', '1.2.0'],
    ['1.0-alpha-1', '1.0'],
    ['1.0-alpha-1', '1.0-alpha-2'],
    ['1.0-alpha-1', '1.0-beta-1'],
    ['1.0-beta-1', '1.0-SNAPSHOT'],
    ['1.0-SNAPSHOT', '1.0'],
    ['1.0-alpha-1-SNAPSHOT', '1.0-alpha-1'],
    ['1.0', '1.0-1'],
    ['1.0-1', '1.0-2'],
    ['1.0.0', '1.0-1'],
    ['2.0-1', '2.0.1'],
    ['2.0.1-klm', '2.0.1-lmn'],
    ['2.0.1', '2.0.1-xyz'],
    ['2.0.1', '2.0.1-123'],
    ['2.0.1-xyz', '2.0.1-123'],
    // MNG-5568: transitivity with an odd qualifier in the middle.
    ['6.1.0rc3', '6.1.0'],
    ['6.1.0rc3', '6.1H.5-beta'],
    ['6.1.0', '6.1H.5-beta'],
    // MNG-6572: numbers beyond int and long.
    ['20190126.230843', '1234567890.12345'],
    ['1234567890.12345', '123456789012345.1H.5-beta'],
    ['123456789012345.1H.5-beta', '12345678901234567890.1H.5-beta'],
    // MNG-6964: "-0." qualifiers are below the release.
    ['1-0.alpha', '1'],
    ['1-0.beta', '1'],
    ['1-0.alpha', '1-0.beta'],
    // Specification examples.
    ['1-snapshot', '1'],
    ['1', '1-sp'],
    ['1-foo2', '1-foo10'],
    ['1.foo', '1-foo'],
    ['1-foo', '1-1'],
    ['1-1', '1.1'],
    ['1-ga', '1-sp'],
    ['1-ga.1', '1-sp.1'],
    ['1-sp-1', '1-ga-1'],
    ['1.0.0-RC1', '1.0.0'],
    ['33.6.0-android', '33.6.0-jre'],
    ['9.4.56.v20240826', '9.4.57.v20241219'],
  ])('%s < %s', (a, b) => {
    expect(compareMavenVersions(a, b)).toBe(-1);
    expect(compareMavenVersions(b, a)).toBe(1);
  });

  it.each([
    ['1.0.0', '1'],
    ['1.ga', '1'],
    ['1-', '1'],
    ['1.0.0-foo.0.0', '1-foo'],
    ['1.0.0-0.0.0', '1'],
    ['1-1.foo-bar1baz-.1', '1-1.foo-bar-1-baz-0.1'],
    ['1.0-SNAPSHOT', '1-snapshot'],
  ])('canonical(%s) = %s', (version, canonical) => {
    expect(canonicalMavenVersion(version)).toBe(canonical);
  });

  it('sorts a shuffled list the Maven way', () => {
    const shuffled = [
      '1.0',
      '1.0-rc1',
      '1.0-SNAPSHOT',
      '1.0-alpha1',
      '1.0-sp1',
      '1.0.1',
      '1.0-beta',
    ];
    expect([...shuffled].sort(compareMavenVersions)).toEqual([
      '1.0-alpha1',
      '1.0-beta',
      '1.0-rc1',
      '1.0-SNAPSHOT',
      '1.0',
      '1.0-sp1',
      '1.0.1',
    ]);
  });
});

describe('Maven version validity and pre-releases', () => {
  it.each([
    ['1.0', true],
    ['33.6.0-jre', true],
    ['3.6.3.Final', true],
    ['1.0_01', true],
    ['', false],
    ['1.0 beta', false],
    ['[1.0,2.0)', false],
    [`\${project.version}`, false],
    ['LATEST', false],
    ['RELEASE', false],
    ['latest.release', false],
  ])('isValid(%j) = %s', (version, valid) => {
    expect(isValidMavenVersion(version)).toBe(valid);
  });

  it.each([
    ['1.0-alpha-1', true],
    ['1.0a1', true],
    ['1.0-b2', true],
    ['6.0.0-M3', true],
    ['1.0-RC1', true],
    ['5.0.0.CR2', true],
    ['1.0-SNAPSHOT', true],
    ['1.0', false],
    ['1.0.0.RELEASE', false],
    ['33.6.0-jre', false],
    ['1.0-sp1', false],
    ['1.0-m', false],
  ])('isPrerelease(%s) = %s', (version, pre) => {
    expect(isMavenPrerelease(version)).toBe(pre);
  });
});

describe('Maven ranges', () => {
  it('parses the documented range forms', () => {
    expect(parseMavenRange('[1.0,2.0)')).toEqual([
      { lower: '1.0', lowerInclusive: true, upper: '2.0', upperInclusive: false },
    ]);
    expect(parseMavenRange('(,1.0],[1.2,)')).toEqual([
      { lower: null, lowerInclusive: false, upper: '1.0', upperInclusive: true },
      { lower: '1.2', lowerInclusive: true, upper: null, upperInclusive: false },
    ]);
    expect(parseMavenRange('[1.5]')).toEqual([
      { lower: '1.5', lowerInclusive: true, upper: '1.5', upperInclusive: true },
    ]);
  });

  it.each(['1.0', '(1.0)', '[1.0', '[2.0,1.0]', '[1.0,2.0),', '(,)', '[1,2,3]', '[1.0)'])(
    'rejects %j as a range',
    (spec) => {
      expect(parseMavenRange(spec)).toBeNull();
    },
  );

  it.each([
    ['1.0', '[1.0,2.0)', true],
    ['1.5', '[1.0,2.0)', true],
    ['2.0', '[1.0,2.0)', false],
    ['2.0-SNAPSHOT', '[1.0,2.0)', true],
    ['0.9', '[1.0,2.0)', false],
    ['1.0', '(,1.0]', true],
    ['1.0.1', '(,1.0]', false],
    ['1.1', '(,1.0],[1.2,)', false],
    ['1.2', '(,1.0],[1.2,)', true],
    ['5.0', '(,1.0],[1.2,)', true],
    ['1.5', '[1.5]', true],
    ['1.5.0', '[1.5]', true],
    ['1.5.1', '[1.5]', false],
    ['1.0', '(1.0,2.0]', false],
    ['2.0', '(1.0,2.0]', true],
    ['1.5', ']1.0,2.0[', true],
    ['2.0', ']1.0,2.0[', false],
    ['1.0', '1.0', true],
    ['1.0.0', '1.0', true],
    ['1.1', '1.0', false],
    ['4.10.3', '4.10.+', true],
    ['4.11.0', '4.10.+', false],
    ['2.3.0-RC1', '+', true],
    ['2.3.0-RC1', 'latest.release', false],
    ['1.0', '[1.0', false],
  ])('satisfies(%s, %s) = %s', (version, range, expected) => {
    expect(mavenSatisfies(version, range)).toBe(expected);
  });

  it.each([
    ['[1.0,2.0)', true],
    ['(,1.0]', true],
    ['[1.5]', true],
    ['1.+', true],
    ['latest.release', true],
    ['1.0', false],
    ['1.0-SNAPSHOT', false],
    ['', false],
  ])('isRange(%j) = %s', (spec, expected) => {
    expect(isMavenRange(spec)).toBe(expected);
  });
});
