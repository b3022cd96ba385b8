import { describe, expect, it } from 'vitest';
import { asArray, asObject, isObject, scalarText, trimmedText } from './json-values';

describe('untrusted JSON readers', () => {
  it('take plain objects and arrays for what they are, anything else as nothing', () => {
    for (const value of [null, undefined, 1, 'a', [], [1]]) expect(isObject(value)).toBe(false);
    expect(asObject({ a: 1 })).toEqual({ a: 1 });
    expect(asObject([1])).toBeNull();
    expect(asArray([1, 'a'])).toEqual([1, 'a']);
    expect(asArray({ 0: 'a', length: 1 })).toEqual([]);
  });

  it('trimmedText: trimmed, non-empty, bounded; never a number', () => {
    expect(trimmedText('  MIT  ')).toBe('MIT');
    expect(trimmedText('   ')).toBeNull();
    expect(trimmedText('abcdef', 3)).toBe('abc');
    expect(trimmedText('x'.repeat(2001))).toHaveLength(2000);
    expect(trimmedText(42)).toBeNull();
  });

  it('scalarText: a string as sent, a finite number as its decimal text', () => {
    expect(scalarText(' main ')).toBe(' main ');
    expect(scalarText('')).toBe('');
    expect(scalarText(12345)).toBe('12345');
    expect(scalarText(Number.NaN)).toBeNull();
    expect(scalarText(true)).toBeNull();
  });
});
