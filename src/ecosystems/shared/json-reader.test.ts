import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJson, JsonReadError, JsonReader } from './json-reader';

/** `text` handed out `size` characters at a time. */
function pieces(text: string, size: number): () => string | null {
  let at = 0;
  return () => {
    if (at >= text.length) return null;
    const piece = text.slice(at, at + size);
    at += size;
    return piece;
  };
}

/** checkJson over the text arriving in pieces. */
function checkPieces(text: string, size: number): ReturnType<typeof checkJson> {
  const reader = new JsonReader('', pieces(text, size));
  try {
    reader.skipValue(false);
    reader.end();
    return { ok: true };
  } catch (error) {
    if (error instanceof JsonReadError) return { ok: false, error };
    throw error;
  }
}

const accepts = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('JsonReader', () => {
  it.each([
    ['{}'],
    ['[]'],
    [' \t\r\n{"a": [1, -0, 2.5e-3, 1E+2, true, false, null, "x"]} \n'],
    ['"\\u00e9\\n\\/\\b\\f\\r\\t\\"\\\\"'],
    ['"\\ud800 lone surrogate escape and \ud800 raw"'],
    ['"\u2028\u2029\u007f"'],
    ['{"__proto__": {"polluted": true}, "a": {"a": {"a": []}}}'],
    ['{"dup": 1, "dup": 2}'],
    ['0'],
    ['-12.5'],
  ])('accepts what JSON.parse accepts: %s', (text) => {
    expect(accepts(text)).toBe(true);
    expect(checkJson(text)).toEqual({ ok: true });
  });

  it.each([
    ['', 'unexpected end of JSON (expected a value) at line 1'],
    ['{"a": 1', 'unexpected end of JSON (expected "," or "}") at line 1'],
    ['{"a": 1,}', 'unexpected "}" (expected a string key) at line 1'],
    ['[1, 2,]', 'unexpected "]" (expected a value) at line 1'],
    ['{"a"\n: tru}', 'unexpected "t" (expected a value) at line 2'],
    ['{"a": "x\ny"}', 'control character in string at line 1'],
    ['"\\x"', 'bad escape in string at line 1'],
    ['"\\u12"', 'bad escape in string at line 1'],
    ['"open', 'unexpected end of JSON inside a string at line 1'],
    ['01', 'unexpected "1" (expected the end of the JSON text) at line 1'],
    ['1.', 'unexpected "." (expected the end of the JSON text) at line 1'],
    ['{} {}', 'unexpected "{" (expected the end of the JSON text) at line 1'],
    ['// comment\n{}', 'unexpected "/" (expected a value) at line 1'],
    ["{'a': 1}", `unexpected "'" (expected a string key) at line 1`],
    ['\ufeff{}', 'unexpected "\ufeff" (expected a value) at line 1'],
    ['[NaN]', 'unexpected "N" (expected a value) at line 1'],
    ['{"a" 1}', 'unexpected "1" (expected ":") at line 1'],
    ['[1 2]', 'unexpected "2" (expected "," or "]") at line 1'],
  ])('refuses %j with a clear error', (text, message) => {
    expect(accepts(text)).toBe(false);
    const result = checkJson(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBeInstanceOf(JsonReadError);
      expect(result.error.message).toBe(message);
    }
  });

  it('reads nesting of any depth without recursion (no stack overflow)', () => {
    const depth = 1_000_000;
    expect(checkJson(`${'['.repeat(depth)}${']'.repeat(depth)}`)).toEqual({ ok: true });
    expect(checkJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)).toEqual({ ok: true });
    const cut = checkJson(`${'['.repeat(depth)}${']'.repeat(depth - 1)}`);
    expect(cut.ok).toBe(false);
  });

  it('reads huge strings and reports a truncated one', () => {
    const big = 'x'.repeat(20 * 1024 * 1024);
    expect(checkJson(`{"k": "${big}"}`)).toEqual({ ok: true });
    const cut = checkJson(`{"k": "${big}`);
    expect(cut.ok).toBe(false);
    if (!cut.ok) expect(cut.error.message).toBe('unexpected end of JSON inside a string at line 1');
    const escapes = '\\n'.repeat(1024 * 1024);
    expect(checkJson(`"${escapes}"`)).toEqual({ ok: true });
  });

  it('reports the line and offset where the text stops being JSON', () => {
    const result = checkJson('{\n  "a": 1,\n  "b": [1, 2\n}');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.line).toBe(4);
      expect(result.error.offset).toBe(25);
    }
  });

  it('hands out object members as spans, keys decoded, values checked', () => {
    const text = '{"a\\u0062": {"x": [1]}, "c": "d", "a\\u0062": 2}';
    const reader = new JsonReader(text);
    const members = reader.members();
    reader.end();
    expect(members.map((m) => [m.key, text.slice(m.start, m.end)])).toEqual([
      ['ab', '{"x": [1]}'],
      ['c', '"d"'],
      ['ab', '2'],
    ]);
    expect(() => new JsonReader('{"a": [1,}').members()).toThrow(JsonReadError);
  });

  it('gives the same answer, error, offset and line when the text arrives in pieces', () => {
    const documents = [
      '{"a": [1, -0, 2.5e-3, 1E+2, true, false, null, "x\\u00e9\\n"]}',
      '{\n  "a": 1,\n  "b": [1, 2\n}',
      '[12345678901234567890, -1.5e+300, "\\ud800"]',
      '{"a": tru}',
      '{"a": "open',
      '"\\u12"',
      '[1, 2,]',
      '12 ',
      '-',
    ];
    for (const text of documents) {
      const whole = checkJson(text);
      for (const size of [1, 2, 3, 5, 8]) {
        const split = checkPieces(text, size);
        expect(split.ok, `${text} in pieces of ${size}`).toBe(whole.ok);
        if (!whole.ok && !split.ok) {
          expect(split.error.message).toBe(whole.error.message);
          expect(split.error.offset).toBe(whole.error.offset);
        }
      }
    }
  });

  it('holds only the piece at hand and the span being read, not the document', () => {
    const entry = (i: number) => `"node_modules/p${i}": {"version": "1.0.${i}", "x": [1, 2, 3]}`;
    const members = Array.from({ length: 60_000 }, (_, i) => entry(i));
    const skipped = `"copy": {${members.join(',\n')}}`;
    const text = `{${members.join(',\n')},\n${skipped}}`;
    let reader: JsonReader | null = null;
    let held = 0;
    const next = pieces(text, 4096);
    reader = new JsonReader('', () => {
      held = Math.max(held, reader?.text.length ?? 0);
      return next();
    });
    const spans: string[] = [];
    const r = reader;
    r.readObject((key) => {
      if (key === 'copy') {
        r.skipValue(false);
        return;
      }
      const { start, end } = r.skipValue();
      if (spans.length < 2) spans.push(r.slice(start, end));
    });
    r.end();
    expect(text.length).toBeGreaterThan(6_000_000);
    expect(held).toBeLessThan(3 * 4096);
    expect(spans).toEqual([
      '{"version": "1.0.0", "x": [1, 2, 3]}',
      '{"version": "1.0.1", "x": [1, 2, 3]}',
    ]);
    // Lines are counted on the way: the last member's line, without the text before it.
    const last = text.lastIndexOf('"x"');
    expect(r.indexOf('"x"', last)).toBe(last);
    expect(r.lineOf(last)).toBe(text.slice(0, last).split('\n').length);
  });

  it('agrees with JSON.parse on generated documents and their corruptions', () => {
    const json = fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value, null, 1));
    fc.assert(
      fc.property(json, fc.nat(), fc.string({ maxLength: 3 }), (text, at, insert) => {
        expect(checkJson(text).ok).toBe(true);
        const position = text.length === 0 ? 0 : at % text.length;
        const cut = text.slice(0, position);
        expect(checkJson(cut).ok).toBe(accepts(cut));
        const changed = text.slice(0, position) + insert + text.slice(position + 1);
        expect(checkJson(changed).ok).toBe(accepts(changed));
        // The same in pieces (a file read in chunks): the same verdict, the same error.
        for (const size of [1, 3, 64]) {
          const whole = checkJson(changed);
          const split = checkPieces(changed, size);
          expect(split.ok).toBe(whole.ok);
          if (!whole.ok && !split.ok) expect(split.error.message).toBe(whole.error.message);
        }
      }),
      { numRuns: 2000, seed: 19 },
    );
  });
});
