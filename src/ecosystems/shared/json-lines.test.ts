import { describe, expect, it } from 'vitest';
import {
  ARRAY_ELEMENT,
  jsonValueLines,
  pathKey,
  scanJsonKeys,
  sequentialKeyLines,
} from './json-lines';

const TEXT = [
  '{',
  '  "a": {',
  '    "x\\"y": [1, {"deep": true}],',
  '    "b": "str,with:{braces}"',
  '  },',
  '  "c": 3',
  '}',
].join('\n');

describe('scanJsonKeys', () => {
  it('reports every key with its enclosing path, line and value span', () => {
    const seen: string[] = [];
    const { records, complete } = scanJsonKeys(TEXT, (path, key) => {
      seen.push(`${path.join('>')}|${key}`);
      return key;
    });
    expect(complete).toBe(true);
    expect(seen).toEqual(['|a', 'a|x"y', `a>x"y>${ARRAY_ELEMENT}|deep`, 'a|b', '|c']);
    const a = records.find((r) => r.key === 'a');
    expect(a?.line).toBe(2);
    expect(JSON.parse(TEXT.slice(a?.start, a?.end))).toEqual({
      'x"y': [1, { deep: true }],
      b: 'str,with:{braces}',
    });
    // Scalars get a start but no end.
    expect(records.find((r) => r.key === 'c')).toMatchObject({ line: 6, end: -1 });
    expect(TEXT[records.find((r) => r.key === 'b')?.start ?? 0]).toBe('"');
  });

  it('honours maxDepth and stopAfterRootKey', () => {
    const keys = (options: Parameters<typeof scanJsonKeys>[2]) =>
      scanJsonKeys(TEXT, (_path, key) => key, options).records.map((r) => r.key);
    expect(keys({ maxDepth: 0 })).toEqual(['a', 'c']);
    expect(keys({ maxDepth: 1, stopAfterRootKey: 'a' })).toEqual(['a', 'x"y', 'b']);
  });

  it('stops without throwing on truncated or non-JSON text', () => {
    const truncated = scanJsonKeys('{\n "a": {"b": 1},\n "c": {"d": ', (_p, key) => key);
    expect(truncated.complete).toBe(false);
    expect(truncated.records.map((r) => [r.key, r.line, r.end === -1])).toEqual([
      ['a', 2, false],
      ['b', 2, true],
      ['c', 3, true],
      ['d', 3, true],
    ]);
    expect(scanJsonKeys('{"unterminated', () => 'x')).toEqual({ records: [], complete: false });
    expect(scanJsonKeys('}}}', () => 'x').complete).toBe(false);
    expect(scanJsonKeys('['.repeat(100_000), () => 'x').complete).toBe(false);
  });
});

describe('sequentialKeyLines', () => {
  it('finds known keys in order and gives up (null) when one is not where expected', () => {
    const text =
      '{\n  "packages": {\n    "": {},\n    "node_modules/a": {\n      "version": "1"\n    }\n  }\n}';
    const from = text.indexOf('"packages":');
    expect(sequentialKeyLines(text, ['', 'node_modules/a'], from, ':')).toEqual([3, 4]);
    expect(sequentialKeyLines(text, ['node_modules/a', ''], from, ':')).toBeNull();
    expect(sequentialKeyLines(text, ['missing'], from, ':')).toBeNull();
  });
});

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

  it('reaches three levels deep and keeps other top-level objects apart', () => {
    const text =
      '{\n "other": {"a": {"b": 1}},\n "dependencies": {\n  "net8.0": {\n   "A\\"B": {},\n   "C": {}\n  }\n }\n}';
    const lines = jsonValueLines(text, 3);
    expect(lines.get(pathKey('dependencies', 'net8.0', 'A"B'))).toBe(5);
    expect(lines.get(pathKey('dependencies', 'net8.0', 'C'))).toBe(6);
    expect(lines.get(pathKey('other', 'a', 'b'))).toBe(2);
  });
});
