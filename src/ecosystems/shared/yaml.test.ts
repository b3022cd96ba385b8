import { describe, expect, it } from 'vitest';
import { MAX_YAML_CHARS, MAX_YAML_FLOW_DEPTH, parseYaml, yamlToJs } from './yaml';

const plainValue = (text: string, merge = false): unknown => {
  const parsed = parseYaml(text, { merge });
  if (!parsed.ok) throw new Error(parsed.reason);
  return yamlToJs(parsed.doc);
};

describe('shared YAML layer', () => {
  it('refuses flow nesting past the limit before parsing, and allows it up to the limit', () => {
    const deep = (n: number) => `a: ${'['.repeat(n)}1${']'.repeat(n)}\n`;
    expect(parseYaml(deep(MAX_YAML_FLOW_DEPTH + 1))).toEqual({
      ok: false,
      reason: `nests collections deeper than ${MAX_YAML_FLOW_DEPTH} levels`,
    });
    expect(parseYaml(deep(MAX_YAML_FLOW_DEPTH)).ok).toBe(true);
  });

  it('refuses a document above the size limit', () => {
    expect(parseYaml(`a: "${'x'.repeat(MAX_YAML_CHARS)}"`)).toEqual({
      ok: false,
      reason: `is larger than ${MAX_YAML_CHARS} characters`,
    });
  });

  it('fails an alias bomb instead of expanding it', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
    ].join('\n');
    expect(() => plainValue(bomb)).toThrow(/resource exhaustion/);
  });

  it('builds no objects from tags and resolves merge keys only when asked', () => {
    expect(plainValue('a: !!js/function "function () {}"\n')).toEqual({
      a: 'function () {}',
    });
    const merged = 'base: &b {x: 1}\nuse:\n  <<: *b\n  y: 2\n';
    expect(plainValue(merged, true)).toEqual({ base: { x: 1 }, use: { x: 1, y: 2 } });
    expect(plainValue(merged)).toEqual({ base: { x: 1 }, use: { '<<': { x: 1 }, y: 2 } });
  });
});
