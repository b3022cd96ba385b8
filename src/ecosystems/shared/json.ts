import type { ExtractionError } from '../types';
import { lineAt, lineStarts } from './text-lines';

/**
 * The one JSON entry point of the extractors that read a file whole (composer.json/.lock,
 * package.json, packages.lock.json, Pipfile.lock; package-lock.json salvages a truncated file its
 * own way). JSON.parse itself is safe on hostile text: `__proto__` becomes an ordinary own key,
 * never the prototype; nesting deep enough to exhaust the stack is a RangeError, reported here as
 * "nested too deeply". Size: the tree walk refuses files above its byte limit first. Positions
 * for keys come from `json-lines.ts`.
 */

export { isObject, type JsonObject } from '../../core/json-values';

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
    if (err instanceof RangeError) {
      return {
        ok: false,
        error: { line: null, message: `${label} is not valid JSON: nested too deeply` },
      };
    }
    const message = err instanceof Error ? err.message : String(err);
    const position = /at position (\d+)/.exec(message);
    // A truncated file ends mid-value: its last line is where it went wrong.
    const truncated = /Unexpected end of JSON input/.test(message);
    const offset = position ? Number(position[1]) : truncated ? text.length : null;
    const line = offset === null ? null : lineAt(lineStarts(text), offset);
    // V8 quotes a slice of the input in some messages; keep the error short.
    const flat = message.replace(/\s+/g, ' ');
    const short = flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
    return { ok: false, error: { line, message: `${label} is not valid JSON: ${short}` } };
  }
}
