import { parse } from 'smol-toml';
import type { ExtractionError } from '../types';

/**
 * The one TOML entry point of the extractors (Cargo.toml, Cargo.lock, pyproject.toml, Pipfile,
 * poetry.lock, uv.lock, Gradle version catalogues). Every caller gets the same hostile-input
 * settings: `__proto__` / `constructor` / `prototype` keys are dropped (never assigned onto an
 * object), and nesting of inline tables and arrays is capped far below smol-toml's default of
 * 1,000, which a few kilobytes of `a = [[[[…` would otherwise reach with deep recursion.
 * Size: the tree walk refuses files above its byte limit before any parser sees them.
 */

export const MAX_TOML_DEPTH = 64;

export type TomlTable = Record<string, unknown>;

export type TomlParse = { ok: true; value: TomlTable } | { ok: false; error: ExtractionError };

/** Parses TOML with the limits above; throws smol-toml's error on invalid input. */
export function parseTomlOrThrow(text: string): TomlTable {
  return parse(text, { unsafeKeyBehaviour: 'drop', maxDepth: MAX_TOML_DEPTH }) as TomlTable;
}

/**
 * Parses TOML with the limits above; invalid input becomes one whole-file error
 * `<what> is not valid TOML at line N: <first line of the parser's message>`.
 */
export function parseToml(text: string, what: string): TomlParse {
  try {
    return { ok: true, value: parseTomlOrThrow(text) };
  } catch (error) {
    const line = tomlErrorLine(error);
    const at = line === null ? '' : ` at line ${line}`;
    return {
      ok: false,
      error: {
        line: null,
        message: `${what} is not valid TOML${at}: ${tomlErrorFirstLine(error)}`,
      },
    };
  }
}

export function isTomlTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The 1-based line smol-toml reports for an error, or null when it has none. */
export function tomlErrorLine(error: unknown): number | null {
  const line = (error as { line?: unknown } | null)?.line;
  return typeof line === 'number' && line > 0 ? line : null;
}

/** First line of a parser error's message (smol-toml adds a code excerpt on the next lines). */
export function tomlErrorFirstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? '';
}

/**
 * First line of a parser error, with its line number when smol-toml knows it and it is meaningful
 * (not for a chunk parsed on its own, whose lines are relative).
 */
export function tomlErrorMessage(error: unknown, withLine = true): string {
  if (!(error instanceof Error)) return String(error);
  const first = tomlErrorFirstLine(error);
  const line = tomlErrorLine(error);
  return withLine && line !== null ? `${first} (line ${line})` : first;
}
