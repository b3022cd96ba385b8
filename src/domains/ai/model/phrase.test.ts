import { describe, expect, it } from 'vitest';
import { checkedWording, numbersIn } from './phrase';
import { replyObject } from './translate';

describe('the model wording check', () => {
  it('reads digits, thousands separators and number words', () => {
    expect(numbersIn('1,234 exposures in three repositories, 2.5 libyears')).toEqual([
      '1234',
      '2.5',
      '3',
    ]);
  });

  it('keeps a wording whose numbers are all in the facts, refuses one that invents', () => {
    const facts = ['2 repositories are affected', '[{"package":"lodash@4.17.20","count":12}]'];
    expect(checkedWording('Two repositories use lodash 4.17.20.', facts)).toBe(
      'Two repositories use lodash 4.17.20.',
    );
    expect(checkedWording('12 findings over two repositories.', facts)).not.toBeNull();
    expect(checkedWording('3 repositories are affected.', facts)).toBeNull();
    expect(checkedWording('About 50% of them.', facts)).toBeNull();
    expect(checkedWording('   ', facts)).toBeNull();
    // The digits of a record id are no licence for a number.
    const ids = ['[{"id":"7d3e0b6a-1c2f-4a5b-9c8d-0e1f2a3b4c5d"}]'];
    expect(checkedWording('7 repositories.', ids)).toBeNull();
    expect(checkedWording('x'.repeat(2_000), facts)).toBeNull();
  });

  it('reads a reply object fenced or bare, nothing else', () => {
    expect(replyObject('```json\n{"intent": "a"}\n```')).toEqual({ intent: 'a' });
    expect(replyObject('{"intent": null}')).toEqual({ intent: null });
    expect(replyObject('[1]')).toBeNull();
    expect(replyObject('the inventory')).toBeNull();
  });
});
