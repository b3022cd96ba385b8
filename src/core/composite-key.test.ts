import { describe, expect, it } from 'vitest';
import { compositeKey, keyParts } from './composite-key';

describe('compositeKey', () => {
  it('keeps tuples apart that plain joining would merge', () => {
    expect(compositeKey('a-b', 'c')).not.toBe(compositeKey('a', 'b-c'));
    expect(compositeKey('ab', '')).not.toBe(compositeKey('a', 'b'));
  });

  it('treats a missing part as empty text and gives the parts back', () => {
    expect(compositeKey('npm', null, undefined, 3)).toBe(compositeKey('npm', '', '', '3'));
    expect(keyParts(compositeKey('npm', 'left-pad', null))).toEqual(['npm', 'left-pad', '']);
  });
});
