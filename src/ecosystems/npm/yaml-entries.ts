import { parseYaml, yamlToJs } from '../shared/yaml';
import type { ExtractionError } from '../types';
import { errorMessage, isRecord, setOwn } from './common';

/**
 * Reads a YAML lockfile (yarn Berry, pnpm) entry by entry. Both formats are one block mapping
 * whose keys start at column 0 (and, for pnpm's big sections, at the next indentation level), so
 * the text is split at those key lines and every entry is parsed on its own with the `yaml`
 * package (core schema, no custom tags, bounded alias expansions and nesting). That keeps memory
 * proportional to one entry rather than to a document tree of the whole file, gives each entry
 * its line for free, and turns a broken or truncated entry into that entry's error only. Each entry
 * goes through the shared YAML layer (src/ecosystems/shared/yaml.ts) and its limits.
 * Anchors cannot cross entries: lockfiles never use them, and an alias to another entry is then
 * just an error.
 */

export interface YamlEntries {
  /** Top-level keys to values; a `nested` section is assembled from its own entries. */
  data: Record<string, unknown>;
  /** 1-based line of every top-level key, and of every nested key as `section\0key`. */
  lines: Map<string, number>;
  /** False when not a single entry parsed into a mapping (not YAML, or not a mapping). */
  mapping: boolean;
}

export const NESTED_KEY = '\u0000';

interface Span {
  start: number;
  end: number;
  line: number;
}

/** Lines starting with exactly `indent` spaces then a key character, within [start, end). */
function keyLines(
  text: string,
  start: number,
  end: number,
  firstLine: number,
  indent: number,
): Span[] {
  const spans: Span[] = [];
  let offset = start;
  let line = firstLine;
  while (offset < end) {
    const newline = text.indexOf('\n', offset);
    const lineEnd = newline === -1 || newline > end ? end : newline;
    let spaces = 0;
    while (spaces < indent && text.charCodeAt(offset + spaces) === 32) spaces++;
    const first = text.charCodeAt(offset + spaces);
    // Not a space, tab, comment, CR or LF (an empty line): a key at this level.
    const isKey =
      spaces === indent &&
      offset + spaces < lineEnd &&
      first !== 32 &&
      first !== 9 &&
      first !== 35 &&
      first !== 13;
    if (isKey) {
      const previous = spans[spans.length - 1];
      if (previous) previous.end = offset;
      spans.push({ start: offset, end, line });
    }
    if (newline === -1 || newline >= end) break;
    offset = newline + 1;
    line++;
  }
  return spans;
}

/** Parses one entry's text; its single key and value, or an error at the entry's line. */
function parseEntry(
  text: string,
  span: Span,
  errors: ExtractionError[],
  syntax: { count: number },
): { key: string; value: unknown } | null {
  const parsed = parseYaml(text.slice(span.start, span.end));
  if (!parsed.ok) {
    errors.push({ line: span.line, message: `entry ${parsed.reason}; skipped` });
    return null;
  }
  const doc = parsed.doc;
  const first = doc.errors[0];
  if (first) {
    // Reported at the entry's own line (the library's position is relative to the entry).
    const message = first.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '');
    errors.push({ line: span.line, message: `invalid YAML: ${message}; skipped` });
    syntax.count++;
    return null;
  }
  let value: unknown;
  try {
    value = yamlToJs(doc);
  } catch (error) {
    errors.push({ line: span.line, message: `${errorMessage(error)}; skipped` });
    return null;
  }
  if (value === null || value === undefined) return null; // `---`, a lone comment
  const keys = isRecord(value) ? Object.keys(value) : [];
  if (!isRecord(value) || keys.length !== 1) {
    errors.push({ line: span.line, message: 'not a `key: value` entry; skipped' });
    return null;
  }
  const key = keys[0] as string;
  return { key, value: value[key] };
}

/** Indentation of the first key line after a section header ending at `from`, or null. */
function childIndent(text: string, from: number, end: number): number | null {
  let offset = from;
  while (offset < end) {
    const newline = text.indexOf('\n', offset);
    const lineEnd = newline === -1 || newline > end ? end : newline;
    let spaces = 0;
    while (text.charCodeAt(offset + spaces) === 32) spaces++;
    const first = text.charCodeAt(offset + spaces);
    if (offset + spaces < lineEnd && first !== 35 && first !== 13)
      return spaces > 0 ? spaces : null;
    if (newline === -1) return null;
    offset = newline + 1;
  }
  return null;
}

/**
 * `label` names the format for the whole-file errors: one when nothing could be read at all (then
 * the only error), one ahead of the entry errors when some entries are not valid YAML.
 */
export function readYamlEntries(
  text: string,
  nested: ReadonlySet<string>,
  fileErrors: ExtractionError[],
  label: string,
): YamlEntries {
  const errors: ExtractionError[] = [];
  const syntax = { count: 0 };
  const data: Record<string, unknown> = {};
  const lines = new Map<string, number>();
  let mapping = false;
  for (const span of keyLines(text, 0, text.length, 1, 0)) {
    const headerEnd = text.indexOf('\n', span.start);
    const header = text.slice(span.start, headerEnd === -1 ? span.end : headerEnd);
    const sectionName = /^([A-Za-z_]+):\s*$/.exec(header.trimEnd())?.[1];
    const indent =
      sectionName && nested.has(sectionName) && headerEnd !== -1
        ? childIndent(text, headerEnd + 1, span.end)
        : null;
    if (sectionName && indent !== null && headerEnd !== -1) {
      // A big section (`packages:`): its entries one by one.
      mapping = true;
      lines.set(sectionName, span.line);
      const section: Record<string, unknown> = {};
      for (const child of keyLines(text, headerEnd + 1, span.end, span.line + 1, indent)) {
        const entry = parseEntry(text, child, errors, syntax);
        if (!entry) continue;
        setOwn(section, entry.key, entry.value);
        lines.set(`${sectionName}${NESTED_KEY}${entry.key}`, child.line);
      }
      data[sectionName] = section;
      continue;
    }
    const entry = parseEntry(text, span, errors, syntax);
    if (!entry) continue;
    mapping = true;
    setOwn(data, entry.key, entry.value);
    lines.set(entry.key, span.line);
  }
  if (!mapping) {
    const why = errors[0]?.message.replace(/; skipped$/, '') ?? 'no `key: value` entries';
    fileErrors.push({ line: null, message: `not a ${label}: ${why}` });
  } else {
    if (syntax.count > 0) {
      const what = syntax.count === 1 ? 'one entry' : `${syntax.count} entries`;
      fileErrors.push({
        line: null,
        message: `invalid YAML in ${what}; the other entries were read`,
      });
    }
    fileErrors.push(...errors);
  }
  return { data, lines, mapping };
}
