import { describe, expect, it } from 'vitest';
import { pypi } from './index';
import { compare, isPrerelease, isRange, isValid, satisfies } from './versioning';

describe('pypi versioning (PEP 440)', () => {
  it.each([
    ['1.0', true],
    ['1.0.0', true],
    ['v1.0', true],
    ['1!2.0', true],
    ['1.0a1', true],
    ['1.0-alpha.1', true],
    ['1.0.post1', true],
    ['1.0-1', true],
    ['1.0.dev3', true],
    ['1.0+ubuntu.1', true],
    ['2024.8.30', true],
    ['', false],
    ['abc', false],
    ['1.0.0.0.a.b', false],
    ['1.0+', false],
    ['latest', false],
  ])('isValid(%j) is %s', (version, expected) => {
    expect(isValid(version)).toBe(expected);
  });

  // Each row is ascending: a < b. Covers the documented PEP 440 ordering rules.
  it.each([
    ['1.0.dev1', '1.0a1'], // dev releases sort before pre-releases of the same release
    ['1.0a1', '1.0a2'],
    ['1.0a2', '1.0b1'],
    ['1.0b1', '1.0rc1'],
    ['1.0rc1', '1.0'],
    ['1.0', '1.0.post1'], // post releases sort after the release
    ['1.0.post1.dev1', '1.0.post1'],
    ['1.0', '1.0+local'], // a local version sorts after its public version
    ['1.0+abc', '1.0+abc.1'],
    ['1.9', '1.10'], // numeric, not lexical
    ['2.0', '1!0.1'], // epochs dominate
    ['1.0a1', '1.0.0'],
    ['not-a-version', '0.0.1'], // invalid strings sort before every valid version
    ['aaa', 'bbb'], // and among themselves by string order
  ])('%s < %s', (a, b) => {
    expect(compare(a, b)).toBe(-1);
    expect(compare(b, a)).toBe(1);
  });

  it.each([
    ['1.0', '1.0.0'],
    ['1.0', 'v1.0'],
    ['1.0alpha1', '1.0a1'],
    ['1.0-post1', '1.0.post1'],
    ['junk', 'junk'],
  ])('%s == %s', (a, b) => {
    expect(compare(a, b)).toBe(0);
  });

  it('sorts a mixed list without throwing', () => {
    const list = ['2.0', 'garbage', '1.0rc1', '1.0', '1.0.post1', '1!0.5', '1.0.dev0'];
    expect([...list].sort(compare)).toEqual([
      'garbage',
      '1.0.dev0',
      '1.0rc1',
      '1.0',
      '1.0.post1',
      '2.0',
      '1!0.5',
    ]);
  });

  it.each([
    ['1.0a1', true],
    ['1.0b2', true],
    ['1.0rc1', true],
    ['1.0.dev1', true],
    ['1.0.post1.dev1', true],
    ['1.0.post1', false],
    ['1.0', false],
    ['1.0+local', false],
    ['garbage', false],
  ])('isPrerelease(%j) is %s', (version, expected) => {
    expect(isPrerelease(version)).toBe(expected);
  });

  it.each([
    ['1.6', '>=1.0,<2,!=1.5.*', true],
    ['1.5.3', '>=1.0,<2,!=1.5.*', false],
    ['2.0', '>=1.0,<2,!=1.5.*', false],
    ['1.0', '>= 1.0, < 2', true], // spaces around operators and commas
    ['1.4.5', '~=1.4.2', true], // compatible release: >=1.4.2,==1.4.*
    ['1.5.0', '~=1.4.2', false],
    ['1.9', '~=1.4', true],
    ['2.0', '~=1.4', false],
    ['1.0', '===1.0', true], // arbitrary equality is a string match
    ['1.0.0', '===1.0', false],
    ['foobar', '===foobar', true],
    ['3.1.4', '==3.1.*', true],
    ['3.2.0', '==3.1.*', false],
    ['1.0.0', '==1.0', true], // zero padding
    ['2.0b1', '>=1.0', true], // pre-releases are judged by position (containment)
    ['2.0b1', '<2.0', false], // PEP 440: <V excludes pre-releases of V itself
    ['2.0b1', '<2.0b2', true],
    ['1.9', '<2.0', true],
    ['2.0b1', '>2.0a1', true],
    ['1.0.post1', '>1.0', false], // PEP 440: >V excludes post-releases of V itself
    ['1.0.post2', '>1.0.post1', true],
    ['1.0+local', '>1.0', false], // and local versions of V
    ['1.1', '>1.0', true],
    ['1!1.0', '>2.0', true],
    ['1.0+local', '==1.0', true], // local label ignored by == without one
    ['1.0', '', true],
    ['1.0', '*', true],
    ['garbage', '>=1.0', false],
    ['1.0', 'not a range', false],
    // Poetry constraints as kept from pyproject.toml
    ['1.9.0', '^1.2.3', true],
    ['2.0.0', '^1.2.3', false],
    ['0.2.9', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['0.0.3', '^0.0.3', true],
    ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.9', '~1', true],
    ['1.2.3', '1.2.3', true], // a bare Poetry version is exact
    ['1.2.4', '1.2.3', false],
    ['1.5', '>=1.0 <2.0', true], // space-separated AND
    ['2.5', '^1.0 || ^2.0', true],
    ['3.0', '^1.0 || ^2.0', false],
  ])('satisfies(%j, %j) is %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it.each([
    ['1.0', false],
    ['==1.0', false],
    ['===1.0', false],
    ['== 1.0', false],
    ['==1.0.*', true],
    ['>=1.0', true],
    ['>=1.0,<2', true],
    ['~=1.4', true],
    ['!=1.5', true],
    ['^1.2', true],
    ['~1.2', true],
    ['*', true],
    ['', true],
    ['junk', false],
  ])('isRange(%j) is %s', (spec, expected) => {
    expect(isRange(spec)).toBe(expected);
  });

  it('is the module versioning, with PEP 503 names and the pypi purl type', () => {
    expect(pypi.versioning.compare).toBe(compare);
    expect(pypi.id).toBe('PyPI');
    expect(pypi.osvEcosystem).toBe('PyPI');
    expect(pypi.purlType).toBe('pypi');
    expect(pypi.normaliseName('Zope.Interface')).toBe('zope-interface');
    expect(pypi.normaliseName('typing__extensions')).toBe('typing-extensions');
    expect(pypi.normaliseName('A-_.b')).toBe('a-b');
    expect(pypi.normaliseName('Django')).toBe('django');
  });
});
