import { compositeKey } from '../../core/composite-key';
/**
 * Line numbers for TOML documents, which smol-toml does not report. One pass over the text records
 * where each `[[array]]` header, each `key =` and each string inside a key's value sits, so that
 * extractors can look lines up instead of searching the text once per entry.
 *
 * It is a scanner, not a parser: it understands headers, keys, strings (basic, literal and
 * multi-line), comments and bracket depth, which is all a line lookup needs. Anything it cannot
 * place simply has no line (null), which the contract allows.
 */

export interface TomlLineIndex {
  /** 1-based lines of every `[[name]]` header, in document order. */
  arrayHeaderLines: (table: string) => readonly number[];
  /** Line of the first `key =` directly under `[table]`. */
  keyLine: (table: string, key: string) => number | null;
  /**
   * Line of a string literal inside the value of `table.key`. Repeated lookups of the same
   * string return successive occurrences, so duplicates get their own lines.
   */
  stringLine: (table: string, key: string, value: string) => number | null;
}

function normaliseHeader(inner: string): string {
  const segments: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (const ch of inner) {
    if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '.') {
      segments.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  segments.push(current.trim());
  return segments.join('.');
}

/** `[a.b]` or `[[a.b]]` with an optional comment; string scans only, no backtracking regex. */
function parseHeader(raw: string): { array: boolean; name: string } | null {
  const line = raw.trim();
  if (!line.startsWith('[')) return null;
  const array = line.startsWith('[[');
  const close = line.indexOf(array ? ']]' : ']');
  if (close === -1) return null;
  const rest = line.slice(close + (array ? 2 : 1)).trim();
  if (rest !== '' && !rest.startsWith('#')) return null;
  return { array, name: normaliseHeader(line.slice(array ? 2 : 1, close)) };
}
const KEY = /^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=/;

interface Occurrences {
  lines: number[];
  next: number;
}

/** `strings: false` skips recording string literals (lockfiles only need their headers). */
export function indexTomlLines(text: string, options: { strings?: boolean } = {}): TomlLineIndex {
  const recordStrings = options.strings ?? true;
  const arrayHeaders = new Map<string, number[]>();
  const keys = new Map<string, number>();
  const strings = new Map<string, Occurrences>();
  const lines = text.split('\n');

  let table = '';
  let key = '';
  let depth = 0;
  let multiline: '"""' | "'''" | null = null;

  const addString = (value: string, line: number) => {
    if (!recordStrings) return;
    const id = compositeKey(table, key, value);
    const entry = strings.get(id);
    if (entry) entry.lines.push(line);
    else strings.set(id, { lines: [line], next: 0 });
  };

  /** Scans a value fragment for strings and brackets; stops at a comment. */
  const scan = (fragment: string, line: number) => {
    let i = 0;
    while (i < fragment.length) {
      const ch = fragment[i]!;
      if (ch === '#') return;
      if (ch === '"' || ch === "'") {
        const triple = ch.repeat(3);
        if (fragment.startsWith(triple, i)) {
          const close = fragment.indexOf(triple, i + 3);
          if (close === -1) {
            multiline = triple as '"""' | "'''";
            return;
          }
          i = close + 3;
          continue;
        }
        let j = i + 1;
        let value = '';
        while (j < fragment.length && fragment[j] !== ch) {
          if (ch === '"' && fragment[j] === '\\' && j + 1 < fragment.length) {
            value += fragment[j + 1];
            j += 2;
            continue;
          }
          value += fragment[j];
          j++;
        }
        addString(value, line);
        i = j + 1;
        continue;
      }
      if (ch === '[' || ch === '{') depth++;
      else if (ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
      i++;
    }
  };

  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n]!;
    const lineNo = n + 1;
    if (multiline) {
      const close = raw.indexOf(multiline);
      if (close === -1) continue;
      multiline = null;
      scan(raw.slice(close + 3), lineNo);
      continue;
    }
    if (depth === 0) {
      const header = parseHeader(raw);
      if (header) {
        table = header.name;
        key = '';
        if (header.array) {
          const list = arrayHeaders.get(table);
          if (list) list.push(lineNo);
          else arrayHeaders.set(table, [lineNo]);
        }
        continue;
      }
      const keyMatch = KEY.exec(raw);
      if (keyMatch) {
        key = normaliseHeader(keyMatch[1]!);
        const id = compositeKey(table, key);
        if (!keys.has(id)) keys.set(id, lineNo);
        scan(raw.slice(keyMatch[0].length), lineNo);
        continue;
      }
    }
    scan(raw, lineNo);
  }

  return {
    arrayHeaderLines: (name) => arrayHeaders.get(name) ?? [],
    keyLine: (name, k) => keys.get(compositeKey(name, k)) ?? null,
    stringLine: (name, k, value) => {
      const entry = strings.get(compositeKey(name, k, value));
      if (!entry) return null;
      const line = entry.lines[Math.min(entry.next, entry.lines.length - 1)]!;
      entry.next++;
      return line;
    },
  };
}
