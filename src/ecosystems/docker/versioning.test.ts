import { describe, expect, it } from 'vitest';
import { parseTag, sameVariant, dockerVersioning as v } from './versioning';

describe('Docker tags', () => {
  it.each([
    ['18', { release: [18], suffix: '', variant: '' }],
    ['3.12.1', { release: [3, 12, 1], suffix: '', variant: '' }],
    ['24-alpine3.23', { release: [24], suffix: '', variant: 'alpine3.23' }],
    ['1.26.5-alpine3.23', { release: [1, 26, 5], suffix: '', variant: 'alpine3.23' }],
    ['3.13.0rc1-slim', { release: [3, 13, 0], suffix: 'rc1', variant: 'slim' }],
    ['v1.2', { release: [1, 2], suffix: '', variant: '' }],
    ['8.0-nanoserver-ltsc2022', { release: [8, 0], suffix: '', variant: 'nanoserver-ltsc2022' }],
    ['latest', null],
    ['bookworm', null],
    ['sha256:0123', null],
    ['', null],
  ])('parseTag(%j)', (tag, expected) => {
    expect(parseTag(tag)).toEqual(expected);
  });

  it.each([
    ['1.10', '1.9', 1],
    ['18', '18.0.1', -1],
    ['3.13.0rc1', '3.13.0', -1],
    ['3.13.0-beta1', '3.13.0', -1],
    ['20-alpine', '18-alpine', 1],
    ['latest', '1.0', -1],
    ['latest', 'stable', -1],
    ['1.0', '1.0', 0],
  ])('compare(%s, %s) = %i', (a, b, expected) => {
    expect(v.compare(a, b)).toBe(expected);
    expect(v.compare(b, a)).toBe(-expected || 0);
  });

  it('sorts tags of one variant numerically', () => {
    expect(['1.10-slim', '1.2-slim', '1.9.1-slim', '1.9-slim'].sort(v.compare)).toEqual([
      '1.2-slim',
      '1.9-slim',
      '1.9.1-slim',
      '1.10-slim',
    ]);
  });

  it('tells whether two tags are the same variant (only then is compare meaningful)', () => {
    expect(sameVariant('18-alpine', '20-alpine')).toBe(true);
    expect(sameVariant('18-alpine', '20-slim')).toBe(false);
    expect(sameVariant('18', '20')).toBe(true);
    expect(sameVariant('latest', 'latest')).toBe(false);
  });

  it('is valid only for tags with a numeric release', () => {
    expect(v.isValid('1.25.3-alpine')).toBe(true);
    expect(v.isValid('latest')).toBe(false);
    expect(v.isValid('x'.repeat(200))).toBe(false);
  });

  it.each([
    ['3.13.0rc1', true],
    ['2.0-beta2-alpine', true],
    ['1.0.0-rc.1', true],
    ['3.12.1-slim', false],
    ['latest', false],
  ])('isPrerelease(%s) = %s', (tag, expected) => {
    expect(v.isPrerelease(tag)).toBe(expected);
  });

  it('has no ranges: satisfies is exact tag equality', () => {
    expect(v.satisfies('18-alpine', '18-alpine')).toBe(true);
    expect(v.satisfies('18.1-alpine', '18-alpine')).toBe(false);
    expect(v.satisfies('', '')).toBe(false);
    expect(v.isRange('>=18')).toBe(false);
  });
});
