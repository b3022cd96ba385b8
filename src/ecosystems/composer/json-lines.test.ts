import { describe, expect, it } from 'vitest';
import { jsonValueLines, pathKey } from './json-lines';

describe('jsonValueLines', () => {
  it('maps shallow values to the line they start on', () => {
    const text =
      '{\n  "a": [\n    {"x": 1},\n    "two",\n    3\n  ],\n  "b\\"q": {\n    "k\\\\": "v\\\\",\n    "n": null\n  }\n}';
    const lines = jsonValueLines(text, 2);
    expect(
      Object.fromEntries([...lines].map(([k, v]) => [k.split('\u0000').join('/'), v])),
    ).toEqual({
      a: 2,
      'a/0': 3,
      'a/1': 4,
      'a/2': 5,
      'b"q': 7,
      'b"q/k\\': 8,
      'b"q/n': 9,
    });
    expect(lines.get(pathKey('a', 1))).toBe(4);
  });

  it('is linear on long strings full of escapes and deep nesting', () => {
    const text = `{"a": "${'\\\\\\"'.repeat(200_000)}", "b": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const started = performance.now();
    const lines = jsonValueLines(text, 2);
    expect(performance.now() - started).toBeLessThan(500);
    expect([...lines.keys()].map((k) => k.split('\u0000').join('/'))).toEqual(['a', 'b', 'b/0']);
  });
});
