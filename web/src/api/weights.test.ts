import { describe, expect, test } from 'vitest';
import { weightsSum } from './weights';

describe('weightsSum', () => {
  test('sums what was typed, blank as 0, without float noise', () => {
    expect(weightsSum({ a: '33.3', b: '33.3', c: '33.4' })).toEqual({
      values: { a: 33.3, b: 33.3, c: 33.4 },
      sum: 100,
      invalid: [],
    });
    expect(weightsSum({ a: '60', b: ' ', c: '30' }).sum).toBe(90);
    expect(weightsSum({ a: '-5', b: '105' }).sum).toBe(100);
    expect(weightsSum({}).sum).toBe(0);
  });

  test('anything not a number makes the sum unknown and names the field', () => {
    const result = weightsSum({ a: '50', b: 'abc', c: '1e999' });
    expect(result.sum).toBeNull();
    expect(result.invalid).toEqual(['b', 'c']);
  });
});
