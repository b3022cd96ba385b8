import type { ExtractionError } from '../types';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * `JSON.parse` that never throws: a syntax error (or a RangeError from absurd nesting) becomes
 * one whole-file error, with the line when V8 reports a position.
 */
export function parseJson(
  text: string,
  label: string,
): { ok: true; value: unknown } | { ok: false; error: ExtractionError } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const position = /at position (\d+)/.exec(message);
    // A truncated file ends mid-value: its last line is where it went wrong.
    const truncated = /Unexpected end of JSON input/.test(message);
    const line = position
      ? lineAt(text, Number(position[1]))
      : truncated
        ? lineAt(text, text.length)
        : null;
    // V8 quotes a slice of the input in some messages; keep the error short.
    const flat = message.replace(/\s+/g, ' ');
    const short = flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
    return { ok: false, error: { line, message: `${label} is not valid JSON: ${short}` } };
  }
}
