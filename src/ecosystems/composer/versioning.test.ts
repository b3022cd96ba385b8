import { describe, expect, it } from 'vitest';
import {
  type ConstraintSet,
  normaliseVersion,
  parseConstraints,
  phpVersionCompare,
  stabilityOf,
  composerVersioning as v,
} from './versioning';

/** Renders constraints the way composer/semver's tests print them. */
function show(set: ConstraintSet | null): string | null {
  if (set === null) return null;
  return set
    .map((group) => (group.length === 0 ? '*' : group.map((c) => `${c.op}${c.version}`).join(' ')))
    .join(' || ');
}

describe('normaliseVersion (composer/semver VersionParser::normalize)', () => {
  it.each([
    ['1.0.0', '1.0.0.0'],
    ['1.2.3.4', '1.2.3.4'],
    ['1.0.0RC1dev', '1.0.0.0-RC1-dev'],
    ['1.0.0-rC15-dev', '1.0.0.0-RC15-dev'],
    ['1.0.0.RC.15-dev', '1.0.0.0-RC15-dev'],
    ['1.0.0-rc1', '1.0.0.0-RC1'],
    ['1.0.0.pl3-dev', '1.0.0.0-patch3-dev'],
    ['1.0-dev', '1.0.0.0-dev'],
    ['0', '0.0.0.0'],
    ['10.4.13-beta', '10.4.13.0-beta'],
    ['10.4.13beta2', '10.4.13.0-beta2'],
    ['10.4.13beta.2', '10.4.13.0-beta2'],
    ['10.4.13-b', '10.4.13.0-beta'],
    ['10.4.13-b5', '10.4.13.0-beta5'],
    ['v1.0.0', '1.0.0.0'],
    ['V1.2', '1.2.0.0'],
    ['2010.01', '2010.01.0.0'],
    ['2010.01.02', '2010.01.02.0'],
    ['v20100102', '20100102'],
    ['2010-01-02', '2010.01.02'],
    ['20100102-203040', '20100102.203040'],
    ['20100102-203040-p1', '20100102.203040-patch1'],
    ['dev-master', 'dev-master'],
    ['master', 'dev-master'],
    ['1.x-dev', '1.9999999.9999999.9999999-dev'],
    ['6.4.x-dev', '6.4.9999999.9999999-dev'],
    ['dev-feature/foo', 'dev-feature/foo'],
    ['DEV-FOOBAR', 'dev-FOOBAR'],
    ['dev-master as 1.0.0', 'dev-master'],
    ['1.0.0-beta.5+foo', '1.0.0.0-beta5'],
    ['1.0.0+foo', '1.0.0.0'],
    ['1.0.0-alpha-2.1-3+foo', '1.0.0.0-alpha2.1-3'],
    ['1.0.0+foo as 2.0', '1.0.0.0'],
    ['1.2.3@stable', '1.2.3.0'],
    ['1.2.3-stable', '1.2.3.0'],
    ['  1.2  ', '1.2.0.0'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseVersion(input)).toBe(expected);
  });

  it.each([
    '',
    'a',
    '1.0.0-meh',
    '1.0.0.0.0',
    'feature-foo',
    '1.0.0+foo bar',
    'latest',
    `1.${'0'.repeat(300)}`,
  ])('rejects %j', (input) => {
    expect(normaliseVersion(input)).toBeNull();
  });

  it('does not backtrack on a long run of digits after a stability word', () => {
    const hostile = `1.0.0-beta${'1'.repeat(5000)}x`;
    const started = performance.now();
    expect(normaliseVersion(hostile)).toBeNull();
    expect(v.isValid(`1.0.0-beta${'1.'.repeat(100)}`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe('phpVersionCompare (PHP version_compare)', () => {
  it.each([
    ['1.0.0.0', '1.0.0.0', 0],
    ['1.0.0.0-dev', '1.0.0.0-alpha1', -1],
    ['1.0.0.0-alpha1', '1.0.0.0-beta1', -1],
    ['1.0.0.0-beta2', '1.0.0.0-RC1', -1],
    ['1.0.0.0-RC1', '1.0.0.0', -1],
    ['1.0.0.0', '1.0.0.0-patch1', -1],
    ['1.0.0.0-beta2', '1.0.0.0-beta10', -1],
    ['5.2', '5.2.0', -1],
    ['1.0rc1', '1.0', -1],
    ['1.0', '1.0pl1', -1],
    ['1.10', '1.9', 1],
    ['1.0.0.0', '1.0.0.0-stable', 1],
    ['00001.0', '1.0', 0],
  ])('%s vs %s = %i', (a, b, expected) => {
    expect(phpVersionCompare(a, b)).toBe(expected);
    expect(phpVersionCompare(b, a)).toBe(-expected || 0);
  });
});

describe('parseConstraints (composer/semver VersionParser::parseConstraints)', () => {
  it.each([
    ['*', '*'],
    ['*.*', '>=0.0.0.0-dev'],
    ['x.X.x.*', '>=0.0.0.0-dev'],
    ['v*.*', '>=0.0.0.0-dev'],
    ['<>1.0.0', '!=1.0.0.0'],
    ['!=1.0.0', '!=1.0.0.0'],
    ['>1.0.0', '>1.0.0.0'],
    ['<1.2.3.4', '<1.2.3.4-dev'],
    ['<=1.2.3', '<=1.2.3.0'],
    ['>=1.2.3', '>=1.2.3.0-dev'],
    ['=1.2.3', '==1.2.3.0'],
    ['==1.2.3', '==1.2.3.0'],
    ['1.2.3', '==1.2.3.0'],
    ['1.2.3b5', '==1.2.3.0-beta5'],
    ['1.2.3pl1234', '==1.2.3.0-patch1234'],
    ['>= 1.2.3', '>=1.2.3.0-dev'],
    ['< 1.2.3', '<1.2.3.0-dev'],
    ['dev-master', '==dev-master'],
    ['dev-feature-a', '==dev-feature-a'],
    ['foobar-dev', '==dev-foobar'],
    ['dev-master as 1.0.0', '==dev-master'],
    ['<1.2.3.4-stable', '<1.2.3.4'],
    ['1.0@dev', '==1.0.0.0'],
    ['1.0.x-dev#abcd123', '==1.0.9999999.9999999-dev'],
    ['>=1.0@beta', '>=1.0.0.0-beta'],
    ['@dev', '*'],
    // wildcards
    ['v2.*', '>=2.0.0.0-dev <3.0.0.0-dev'],
    ['2.0.*', '>=2.0.0.0-dev <2.1.0.0-dev'],
    ['2.x.x', '>=2.0.0.0-dev <3.0.0.0-dev'],
    ['2.10.X', '>=2.10.0.0-dev <2.11.0.0-dev'],
    ['2.1.3.*', '>=2.1.3.0-dev <2.1.4.0-dev'],
    ['0.*', '<1.0.0.0-dev'],
    // tilde
    ['~v1', '>=1.0.0.0-dev <2.0.0.0-dev'],
    ['~1.0', '>=1.0.0.0-dev <2.0.0.0-dev'],
    ['~1.0.0', '>=1.0.0.0-dev <1.1.0.0-dev'],
    ['~1.2.3', '>=1.2.3.0-dev <1.3.0.0-dev'],
    ['~1.2.3.4', '>=1.2.3.4-dev <1.2.4.0-dev'],
    ['~1.2-beta', '>=1.2.0.0-beta <2.0.0.0-dev'],
    ['~1.2-BETA2', '>=1.2.0.0-beta2 <2.0.0.0-dev'],
    ['~1.2.2-dev', '>=1.2.2.0-dev <1.3.0.0-dev'],
    // caret
    ['^v1', '>=1.0.0.0-dev <2.0.0.0-dev'],
    ['^0', '>=0.0.0.0-dev <1.0.0.0-dev'],
    ['^0.0', '>=0.0.0.0-dev <0.1.0.0-dev'],
    ['^1.2', '>=1.2.0.0-dev <2.0.0.0-dev'],
    ['^1.2.3-beta.2', '>=1.2.3.0-beta2 <2.0.0.0-dev'],
    ['^1.2.3.4', '>=1.2.3.4-dev <2.0.0.0-dev'],
    ['^0.2.3', '>=0.2.3.0-dev <0.3.0.0-dev'],
    ['^0.0.3', '>=0.0.3.0-dev <0.0.4.0-dev'],
    // hyphen ranges
    ['1 - 2', '>=1.0.0.0-dev <3.0.0.0-dev'],
    ['1.2.3 - 2.3.4.5', '>=1.2.3.0-dev <=2.3.4.5'],
    ['1.2-beta - 2.3', '>=1.2.0.0-beta <2.4.0.0-dev'],
    ['1.2 - 2.3-dev', '>=1.2.0.0-dev <=2.3.0.0-dev'],
    // AND / OR
    ['>=1.0 <2.0', '>=1.0.0.0-dev <2.0.0.0-dev'],
    ['>=1.0,<2.0', '>=1.0.0.0-dev <2.0.0.0-dev'],
    ['>= 1.0, < 2.0', '>=1.0.0.0-dev <2.0.0.0-dev'],
    ['^1.0 || ^2.0', '>=1.0.0.0-dev <2.0.0.0-dev || >=2.0.0.0-dev <3.0.0.0-dev'],
    ['^1.0|^2.0', '>=1.0.0.0-dev <2.0.0.0-dev || >=2.0.0.0-dev <3.0.0.0-dev'],
    ['^4.8.35||^5.6.3', '>=4.8.35.0-dev <5.0.0.0-dev || >=5.6.3.0-dev <6.0.0.0-dev'],
  ])('%s → %s', (input, expected) => {
    expect(show(parseConstraints(input))).toBe(expected);
  });

  it.each(['', '~>1.2', 'foo', '>=bar', '^1.0 ||| 2', '1.0#abcd123'])('rejects %j', (input) => {
    expect(parseConstraints(input)).toBeNull();
  });
});

describe('composerVersioning', () => {
  it.each([
    ['1.2.3', '^1.2', true],
    ['2.0.0', '^1.2', false],
    ['1.3.0-beta1', '^1.2', true],
    ['v1.2.6', '^1.2.3', true],
    ['1.0.0', '>=1.0 <2.0', true],
    ['2.0.0', '>=1.0 <2.0', false],
    ['2.0.0-RC1', '>=1.0 <2.0', false],
    ['1.9.9', '~1.2', true],
    ['1.3.0', '~1.2.3', false],
    ['2.5.0', '^1.0 || ^2.0', true],
    ['1.2', '1.2.0', true],
    ['1.5', '1.0 - 2.0', true],
    ['2.0.9', '1.0 - 2.0', true],
    ['2.1.0', '1.0 - 2.0', false],
    ['dev-master', 'dev-master', true],
    ['dev-master', '*', true],
    ['dev-master', '>=1.0', false],
    ['dev-feature', '!=dev-master', true],
    ['6.4.x-dev', '6.4.x-dev', true],
    ['6.4.x-dev', '^6.4', true],
    ['1.0.0', 'not a range', false],
    ['garbage', '^1.0', false],
    ['1.2.3', '1.2.*', true],
    ['1.3.0', '1.2.*', false],
    ['1.0.0', '>=1.0.0@stable', true],
  ])('satisfies(%s, %s) = %s', (version, range, expected) => {
    expect(v.satisfies(version, range)).toBe(expected);
  });

  it('orders stabilities dev < alpha < beta < RC < stable < patch, branches lowest', () => {
    const sorted = [
      '1.0.0-patch1',
      '1.0.0',
      'dev-master',
      '1.0.0-RC1',
      'v1.0.0-beta2',
      '1.0.0-alpha1',
      '1.0.0-dev',
      '0.9',
      'dev-develop',
      '1.0.0-beta10',
      '1.0.1',
    ].sort(v.compare);
    expect(sorted).toEqual([
      'dev-develop',
      'dev-master',
      '0.9',
      '1.0.0-dev',
      '1.0.0-alpha1',
      'v1.0.0-beta2',
      '1.0.0-beta10',
      '1.0.0-RC1',
      '1.0.0',
      '1.0.0-patch1',
      '1.0.1',
    ]);
  });

  it('treats v-prefixed and padded versions as equal', () => {
    expect(v.compare('v1.2', '1.2.0.0')).toBe(0);
    expect(v.compare('1.10.0', '1.9.0')).toBe(1);
  });

  it('orders versions Composer rejects by PHP comparison, never equal unless identical', () => {
    expect(v.compare('1.0.0.0.1', '1.0.0.0.2')).toBe(-1);
    expect(v.compare('latest', 'stable')).not.toBe(0);
    expect(v.compare('latest', 'latest')).toBe(0);
  });

  it.each([
    ['1.0.0', false],
    ['1.0.0-RC1', true],
    ['1.0.0-beta', true],
    ['1.0.0-alpha', true],
    ['1.0.x-dev', true],
    ['dev-main', true],
    ['1.0.0-patch1', false],
    ['nonsense', false],
  ])('isPrerelease(%s) = %s', (version, expected) => {
    expect(v.isPrerelease(version)).toBe(expected);
  });

  it.each([
    ['1.2.3', false],
    ['v1.2.3', false],
    ['==1.2.3', false],
    ['dev-master', false],
    ['6.4.x-dev', false],
    ['^1.2', true],
    ['~1.2', true],
    ['*', true],
    ['1.2.*', true],
    ['>=1.0 <2.0', true],
    ['1.0 - 2.0', true],
    ['not a version', false],
  ])('isRange(%s) = %s', (spec, expected) => {
    expect(v.isRange(spec)).toBe(expected);
  });

  it('reports stability of normalised versions', () => {
    expect(stabilityOf('1.0.0.0-RC1-dev')).toBe('dev');
    expect(stabilityOf('1.0.0.0-patch2')).toBe('stable');
    expect(stabilityOf('1.0.0.0-beta2')).toBe('beta');
  });
});
