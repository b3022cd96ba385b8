import { describe, expect, test } from 'vitest';
import { unstorableReason } from '../core/storable-text';
import { textErrorsIn } from './edge-rules';
import { INT32_MAX, withNumericBounds } from './validators';

describe('unstorableReason', () => {
  test.each([
    ['plain', null],
    ['😀 paired surrogates', null],
    ['\ufffd replacement', null],
    ['a\u0000b', 'must not contain NUL characters'],
    ['\ud800', 'must not contain unpaired UTF-16 surrogates'],
    ['x\udfff', 'must not contain unpaired UTF-16 surrogates'],
    ['\udc00\ud800', 'must not contain unpaired UTF-16 surrogates'],
  ])('%j', (text, reason) => {
    expect(unstorableReason(text)).toBe(reason);
  });
});

describe('textErrorsIn', () => {
  test('names values and keys by field path, the style of schema errors', () => {
    const errors = textErrorsIn(
      { name: 'ok', repositories: [{ url: 'a\u0000' }], tags: { '\ud800': 'v' } },
      'body',
    );
    expect({ ...errors }).toEqual({
      'repositories[0].url': ['must not contain NUL characters'],
      'tags.\ud800': ['name must not contain unpaired UTF-16 surrogates'],
    });
  });

  test('a bare string is named by its part; __proto__ is a field like any other', () => {
    expect({ ...textErrorsIn('\u0000', 'body') }).toEqual({
      body: ['must not contain NUL characters'],
    });
    const errors = textErrorsIn(JSON.parse('{"__proto__":"\\u0000"}'), 'query');
    expect(Object.keys(errors)).toEqual(['__proto__']);
  });

  test('a NUL 100,000 levels deep is found, without recursion', () => {
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const errors = textErrorsIn(deep, 'body');
    expect(Object.values(errors)).toEqual([['must not contain NUL characters']]);
    expect(Object.keys(errors)[0]).toBe('[0]'.repeat(100_000));
  });
});

describe('withNumericBounds', () => {
  test('adds int32 bounds to unbounded integers and finite ones to numbers, keeps declared bounds', () => {
    const bounded = withNumericBounds({
      type: 'object',
      properties: {
        skip: { type: 'integer', minimum: 0 },
        score: { type: ['number', 'null'] },
        name: { type: 'string' },
      },
    });
    expect(bounded).toEqual({
      type: 'object',
      properties: {
        skip: { type: 'integer', minimum: 0, maximum: INT32_MAX },
        score: { type: ['number', 'null'], minimum: -Number.MAX_VALUE, maximum: Number.MAX_VALUE },
        name: { type: 'string' },
      },
    });
  });
});
