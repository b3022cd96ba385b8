import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { newId } from './ids';

describe('newId', () => {
  it('makes distinct UUIDv7s in creation order, also many within one millisecond', () => {
    // More than the 4 KiB random pool holds (256 ids), so it is refilled on the way.
    const ids = Array.from({ length: 5000 }, () => newId());
    for (const id of ids) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
