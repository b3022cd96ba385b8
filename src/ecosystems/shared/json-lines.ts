/**
 * The one JSON position scanner of the extractors (package-lock.json, package.json,
 * composer.json/.lock, packages.lock.json, Pipfile.lock): one linear pass over JSON text that
 * records where chosen object keys (and, on request, array elements) are: their 1-based line and,
 * for object/array values, the span of the value. JSON.parse gives no positions, and searching
 * for each key from the start of the file is quadratic, so extractors call this once per file.
 *
 * It never throws and never recurses: on malformed or truncated text it stops where it must and
 * reports `complete: false`; spans of values that were never closed keep `end: -1`. That is what
 * lets a truncated lockfile be salvaged entry by entry.
 */

export interface JsonKeyRecord {
  /** The label returned by `select` (often the key itself). */
  id: string;
  key: string;
  /** 1-based line of the key. */
  line: number;
  /** Offset of the value's first character. */
  start: number;
  /** Offset just past a closed object/array value; -1 for scalars and unclosed values. */
  end: number;
}

export interface JsonScanOptions {
  /** Keys nested deeper than this many enclosing keys are not offered to `select` (speed). */
  maxDepth?: number;
  /** Stop as soon as the value of this root-level key is closed. */
  stopAfterRootKey?: string;
  /**
   * Also offer array elements to `select`, with their index as the key (`'0'`, `'1'`, …); the
   * record's line is where the element starts. Paths then name elements by index, not
   * ARRAY_ELEMENT.
   */
  elements?: boolean;
}

export interface JsonScanResult {
  records: JsonKeyRecord[];
  /** False when the text ended inside a value (truncated) or was not JSON-shaped. */
  complete: boolean;
}

const QUOTE = 34;
const BACKSLASH = 92;
const NEWLINE = 10;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;
const SPACE = 32;
const TAB = 9;
const CR = 13;

/** Marker pushed for containers that are array elements (unless `elements` is on). */
export const ARRAY_ELEMENT = '\u0000[';

/** Index of the closing quote of the string opened at `open`, or -1 when it never closes. */
function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (close !== -1) {
    let backslashes = 0;
    let k = close - 1;
    while (text.charCodeAt(k) === BACKSLASH) {
      backslashes++;
      k--;
    }
    if (backslashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
  return -1;
}

function decodeKey(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/**
 * `select(path, key)` is called for every object key whose enclosing-key path is at most
 * `maxDepth` long (`path` lists the keys leading to the key's object, root first; array elements
 * appear as ARRAY_ELEMENT, or as their index with `elements`). Return a label to record the key,
 * or null to skip it. `path` is live: copy it if you keep it.
 */
export function scanJsonKeys(
  text: string,
  select: (path: readonly string[], key: string) => string | null,
  options: JsonScanOptions = {},
): JsonScanResult {
  const scan = new KeyScan(text, select, options);
  const length = text.length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || c === CR || c === COLON) {
      i++;
    } else if (c === NEWLINE) {
      scan.line++;
      i++;
    } else if (c === QUOTE) {
      const close = stringEnd(text, i);
      if (close === -1) return { records: scan.records, complete: false };
      scan.string(i, close);
      i = close + 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      scan.open(i, c === OPEN_BRACE);
      i++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      const done = scan.close(i);
      if (done !== null) return { records: scan.records, complete: done };
      i++;
    } else if (c === COMMA) {
      scan.comma();
      i++;
    } else {
      scan.scalar(i);
      i++;
    }
  }
  return { records: scan.records, complete: false };
}

/** The state of one `scanJsonKeys` pass and what each kind of token does to it. */
class KeyScan {
  readonly records: JsonKeyRecord[] = [];
  line = 1;
  private readonly path: string[] = [];
  // Per open container: is it an object, which record (or -1) its value span belongs to, and
  // (arrays) the index of the current element.
  private readonly isObject: boolean[] = [];
  private readonly openRecord: number[] = [];
  private readonly elementIndex: number[] = [];
  private readonly maxDepth: number;
  private readonly stopAfter: string | undefined;
  private readonly elements: boolean;
  private depth = 0;
  private expectKey = false;
  private pendingKey = false;
  // Inside an array, after `[` or `,`: the next value is an element.
  private pendingElement = false;
  private keyStart = 0;
  private keyEnd = 0;
  private pendingRecord = -1;

  constructor(
    private readonly text: string,
    private readonly select: (path: readonly string[], key: string) => string | null,
    options: JsonScanOptions,
  ) {
    this.maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
    this.stopAfter = options.stopAfterRootKey;
    this.elements = options.elements === true;
  }

  /** A string from `open` to its closing quote `close`: a key, a key's value or an element. */
  string(open: number, close: number): void {
    if (this.expectKey) {
      // Keys are only materialised when offered to `select` or when their value opens a
      // container (the path needs them): most keys of a lockfile are neither.
      this.keyStart = open + 1;
      this.keyEnd = close;
      this.pendingKey = true;
      this.pendingRecord = -1;
      if (this.path.length <= this.maxDepth) {
        const key = decodeKey(this.text.slice(this.keyStart, this.keyEnd));
        this.offer(key, -1);
      }
      this.expectKey = false;
    } else {
      this.valueStarts(open);
    }
  }

  open(at: number, object: boolean): void {
    const element = this.pendingElement;
    if (element) this.startElement(at);
    const record = this.records[this.pendingRecord];
    if (this.depth > 0) this.path.push(this.containerName(record, element));
    if (record) record.start = at;
    this.openRecord.push(this.pendingRecord);
    this.isObject.push(object);
    this.elementIndex.push(0);
    this.depth++;
    this.pendingKey = false;
    this.pendingRecord = -1;
    this.expectKey = object;
    this.pendingElement = !object;
  }

  /** Closes a container; `true`/`false` when the scan is over (complete or not), else null. */
  close(at: number): boolean | null {
    if (this.depth === 0) return false;
    this.depth--;
    this.isObject.pop();
    this.elementIndex.pop();
    const record = this.records[this.openRecord.pop() ?? -1];
    if (record) record.end = at + 1;
    const closedKey = this.depth > 0 ? this.path.pop() : undefined;
    this.expectKey = false;
    this.pendingElement = false;
    if (this.depth === 0) return true;
    if (this.stopAfter !== undefined && this.depth === 1 && closedKey === this.stopAfter) {
      return true;
    }
    return null;
  }

  comma(): void {
    this.expectKey = this.isObject[this.depth - 1] === true;
    if (this.depth > 0 && !this.expectKey) {
      this.elementIndex[this.depth - 1]!++;
      this.pendingElement = true;
    }
  }

  /** A character of a number, true/false/null. */
  scalar(at: number): void {
    this.valueStarts(at);
  }

  /** A value that is not a container starts at `at`: the pending key's or an array element. */
  private valueStarts(at: number): void {
    if (this.pendingKey) {
      const record = this.records[this.pendingRecord];
      if (record) record.start = at;
      this.pendingKey = false;
      this.pendingRecord = -1;
    } else if (this.pendingElement) {
      this.startElement(at);
      this.pendingRecord = -1;
    }
  }

  /** An array element starts at `at`: offered to `select` with its index as the key. */
  private startElement(at: number): void {
    this.pendingElement = false;
    if (!this.elements || this.path.length > this.maxDepth) return;
    this.offer(String(this.elementIndex[this.depth - 1]), at);
  }

  private offer(key: string, start: number): void {
    const id = this.select(this.path, key);
    if (id === null) return;
    this.pendingRecord = this.records.length;
    this.records.push({ id, key, line: this.line, start, end: -1 });
  }

  /** What a container opened at this point is called in `path`. */
  private containerName(record: JsonKeyRecord | undefined, element: boolean): string {
    if (record) return record.key;
    if (this.pendingKey) return decodeKey(this.text.slice(this.keyStart, this.keyEnd));
    return element && this.elements ? String(this.elementIndex[this.depth - 1]) : ARRAY_ELEMENT;
  }
}

/**
 * Fast path for pretty-printed JSON whose keys we already know in file order (JSON.parse keeps
 * insertion order): finds each `"<key>"<suffix>` with a forward `indexOf` from the previous hit
 * and counts newlines in between, so the whole file is crossed once at native search speed.
 * Returns null as soon as a key is not where expected (unusual formatting, escapes); callers then
 * fall back to `scanJsonKeys`.
 */
export function sequentialKeyLines(
  text: string,
  keys: readonly string[],
  from: number,
  suffix: string,
): number[] | null {
  const lines: number[] = new Array(keys.length);
  let position = from;
  let line = 1;
  let newline = text.indexOf('\n');
  for (let k = 0; k < keys.length; k++) {
    const at = text.indexOf(`${JSON.stringify(keys[k])}${suffix}`, position);
    if (at === -1) return null;
    while (newline !== -1 && newline < at) {
      line++;
      newline = text.indexOf('\n', newline + 1);
    }
    lines[k] = line;
    position = at + 1;
  }
  return lines;
}

/** Joins a value's path into a map key for `jsonValueLines`; NUL never occurs in a real key. */
export function pathKey(...parts: Array<string | number>): string {
  return parts.join('\u0000');
}

/**
 * Maps `pathKey(...path)` to the 1-based line where the value starts, for every object value and
 * array element whose path has between 1 and `maxDepth` parts (`['packages', 3]`,
 * `['require', 'vendor/name']`). Meant for text JSON.parse accepted; on anything odd it records
 * fewer lines.
 */
export function jsonValueLines(text: string, maxDepth: number): Map<string, number> {
  const scan = scanJsonKeys(
    text,
    (path, key) => (path.length < maxDepth ? pathKey(...path, key) : null),
    { maxDepth: maxDepth - 1, elements: true },
  );
  const lines = new Map<string, number>();
  for (const record of scan.records) lines.set(record.id, record.line);
  return lines;
}
