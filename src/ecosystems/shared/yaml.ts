import { type Document, type LineCounter, parseDocument } from 'yaml';

/**
 * The one YAML entry point of the extractors (docker-compose files whole; yarn Berry and pnpm
 * lockfiles entry by entry). Every caller gets the same hostile-input settings:
 * - the core schema (no custom tags, so no `!!js/function` and friends), duplicate keys tolerated
 *   (last wins, as in the tools that write these files), library warnings kept off the process;
 *   merge keys (`<<: *base`) only where the format has them (Compose), since resolving them
 *   costs time on every mapping;
 * - at most MAX_YAML_ALIASES alias expansions when a document becomes plain values, so an alias
 *   bomb (`a: &a [x, x]`, `b: &b [*a, *a]`, …) fails instead of exhausting memory;
 * - no document nesting flow collections (`{`, `[`) deeper than MAX_YAML_FLOW_DEPTH: the parser
 *   slows down steeply on deep unclosed flow collections (200 levels take half a second, 300
 *   several seconds), so such text is refused before parsing;
 * - no document longer than MAX_YAML_CHARS (the parser needs about a second per 2.5 MB).
 */

export const MAX_YAML_ALIASES = 100;
export const MAX_YAML_FLOW_DEPTH = 32;
export const MAX_YAML_CHARS = 8 * 1024 * 1024;

const PARSE_OPTIONS = {
  schema: 'core',
  prettyErrors: false,
  uniqueKeys: false,
  // Hostile keys (`{[1]: x}`) would otherwise print process warnings.
  logLevel: 'error',
} as const;

export type YamlParse =
  | { ok: true; doc: Document.Parsed }
  | {
      ok: false;
      /** Why the text was not parsed, e.g. `nests collections deeper than 32 levels`. */
      reason: string;
    };

/**
 * Parses one YAML document with the settings above (`merge` turns on `<<` merge keys). Syntax errors stay on `doc.errors` (the
 * caller decides how to report them); `ok: false` only when a limit refused the text unparsed.
 */
export function parseYaml(
  text: string,
  options: { lineCounter?: LineCounter; merge?: boolean } = {},
): YamlParse {
  if (text.length > MAX_YAML_CHARS) {
    return { ok: false, reason: `is larger than ${MAX_YAML_CHARS} characters` };
  }
  if (flowDepth(text, MAX_YAML_FLOW_DEPTH) > MAX_YAML_FLOW_DEPTH) {
    return { ok: false, reason: `nests collections deeper than ${MAX_YAML_FLOW_DEPTH} levels` };
  }
  const { lineCounter, merge = false } = options;
  return { ok: true, doc: parseDocument(text, { ...PARSE_OPTIONS, lineCounter, merge }) };
}

/** The document as plain values; throws on more than MAX_YAML_ALIASES alias expansions. */
export function yamlToJs(doc: Document.Parsed): unknown {
  return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
}

/**
 * Deepest `{`/`[` nesting in the text, comments skipped. Quotes are not tracked (an apostrophe in
 * a plain scalar would fool it), so brackets inside strings count too: only an absurd file gets
 * near the limit either way. Linear, stops as soon as the limit is passed.
 */
export function flowDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 35 /* # */ && (i === 0 || /\s/.test(text.charAt(i - 1)))) {
      const end = text.indexOf('\n', i);
      if (end < 0) break;
      i = end;
    } else if (c === 123 || c === 91) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if ((c === 125 || c === 93) && depth > 0) depth--;
  }
  return deepest;
}
