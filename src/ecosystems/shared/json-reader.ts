/**
 * An incremental JSON reader (docs/decisions/0008-incremental-json-reader.md): it checks a
 * document against the JSON grammar (RFC 8259, exactly what `JSON.parse` accepts) without
 * building any value, and hands out the members of an object one at a time as spans of the text,
 * so a caller can parse only the values it needs, one small value at a time, instead of holding a
 * whole 50 MB lockfile as one tree. The text may be in memory or arrive in pieces (a file read in
 * chunks, ./file-text.ts): then only the piece at hand and the span being read are held. It never recurses (an explicit stack of open
 * containers, so any nesting depth is safe) and never throws anything but `JsonReadError`, which
 * names the offset and line where the text stops being JSON.
 */

export class JsonReadError extends Error {
  constructor(
    message: string,
    /** Offset in the text where reading stopped. */
    readonly offset: number,
    /** 1-based line of `offset`. */
    readonly line: number,
  ) {
    super(`${message} at line ${line}`);
    this.name = 'JsonReadError';
  }
}

export interface JsonMember {
  /** The key, decoded. */
  key: string;
  /** Offset of the value's first character. */
  start: number;
  /** Offset just past the value's last character. */
  end: number;
}

const SPACE = 32;
const TAB = 9;
const NEWLINE = 10;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** A run of ordinary string characters: no quote, no backslash, no control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters end the run on purpose
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const NUMBER_CHARS = /[-+.0-9eE]*/y;
const SIMPLE_ESCAPES = new Set([QUOTE, BACKSLASH, 47, 98, 102, 110, 114, 116]);

const OBJECT = 1;
const ARRAY = 2;

/** The next piece of a document's text, or null when there is no more. */
export type TextSource = () => string | null;

export class JsonReader {
  /** The text held: from the oldest offset still needed to what the source gave last. */
  text: string;
  /** The next unread position in `text`. */
  pos = 0;
  /** Document offset of `text[0]` (text before it was read and dropped). */
  private base = 0;
  private source: TextSource | null;
  /** Document offset from which text must stay held (a span being skipped, a key read). */
  private keepFrom = Number.POSITIVE_INFINITY;
  /** `line` is the 1-based line at document offset `counted`. */
  private counted = 0;
  private line = 1;
  /** Offset of the first newline at or after `counted`; -1: none before `searchedTo`. */
  private pending = -1;
  private searchedTo = 0;

  /**
   * `text`, or the first part of it with `source` handing out the rest piece by piece (a file
   * read in chunks): text already read is dropped as more arrives, except what a span or key
   * still being read needs, so a document is never held whole. Offsets are document offsets.
   */
  constructor(text: string, source: TextSource | null = null) {
    this.text = text;
    this.source = source;
  }

  /**
   * Appends the source's next piece; false at the end of the document. Text before both the
   * current position and `keepFrom` is dropped once it is at least as long as the new piece (so
   * each character is copied a bounded number of times). Callers holding positions in `text`
   * shift them by the change of `base`.
   */
  private more(): boolean {
    if (!this.source) return false;
    const next = this.source();
    if (next === null) {
      this.source = null;
      return false;
    }
    const drop = Math.min(this.pos, this.keepFrom - this.base);
    if (drop > 0 && drop >= next.length) {
      this.countLines(this.base + drop);
      this.text = this.text.slice(drop) + next;
      this.base += drop;
      this.pos -= drop;
    } else {
      this.text += next;
    }
    return true;
  }

  /** Makes `n` characters from the current position available, as far as the document goes. */
  private ahead(n: number): void {
    while (this.text.length - this.pos < n && this.more()) {
      // more() appended a piece
    }
  }

  /**
   * Counts newlines from `counted` up to document offset `upTo` (both held). The next newline's
   * offset is remembered (`pending`), so asking for line after line costs the text once, even
   * with no newline in it at all (a minified lock).
   */
  private countLines(upTo: number): void {
    const { text, base } = this;
    for (;;) {
      if (this.pending === -1) {
        const end = base + text.length;
        if (this.searchedTo >= end) break;
        const at = text.indexOf('\n', Math.max(this.searchedTo, this.counted) - base);
        this.searchedTo = end;
        if (at === -1) break;
        this.pending = at + base;
      }
      if (this.pending >= upTo) break;
      this.line++;
      const at = text.indexOf('\n', this.pending + 1 - base);
      this.pending = at === -1 ? -1 : at + base;
      this.searchedTo = base + text.length;
    }
    this.counted = upTo;
  }

  /** 1-based line of a held document offset. */
  lineOf(offset: number): number {
    if (offset >= this.counted) {
      this.countLines(offset);
      return this.line;
    }
    let line = this.line;
    const { text, base } = this;
    for (let at = text.indexOf('\n', offset - base); at !== -1 && at + base < this.counted; ) {
      line--;
      at = text.indexOf('\n', at + 1);
    }
    return line;
  }

  /** The held text between two document offsets (a span this reader handed out). */
  slice(start: number, end: number): string {
    return this.text.slice(start - this.base, end - this.base);
  }

  /** Throws at `at` (a position in `text`, default: the current one) with its line. */
  fail(message: string, at = this.pos): never {
    const offset = this.base + Math.min(at, this.text.length);
    throw new JsonReadError(message, offset, this.lineOf(offset));
  }

  skipWhitespace(): void {
    for (;;) {
      const { text } = this;
      let pos = this.pos;
      for (;;) {
        const c = text.charCodeAt(pos);
        if (c === SPACE || c === NEWLINE || c === CR || c === TAB) pos++;
        else break;
      }
      this.pos = pos;
      if (pos < text.length || !this.more()) return;
    }
  }

  /** The character code at the current position after whitespace; NaN at the end. */
  peek(): number {
    this.skipWhitespace();
    return this.text.charCodeAt(this.pos);
  }

  private expect(code: number, what: string): void {
    if (this.peek() !== code) this.unexpected(what);
    this.pos++;
  }

  private unexpected(what: string): never {
    this.ahead(1);
    if (this.pos >= this.text.length) this.fail(`unexpected end of JSON (expected ${what})`);
    const found = JSON.stringify(this.text.charAt(this.pos));
    return this.fail(`unexpected ${found} (expected ${what})`);
  }

  /** Skips a string starting at the current position (its opening quote), checking escapes. */
  private skipString(): void {
    let { text } = this;
    let pos = this.pos + 1;
    for (;;) {
      PLAIN_RUN.lastIndex = pos;
      PLAIN_RUN.test(text);
      pos = PLAIN_RUN.lastIndex;
      if (pos + 6 > text.length && this.source) {
        // Near the end of what is held: the string (or an escape) may go on in the next piece.
        const base = this.base;
        if (this.more()) {
          pos -= this.base - base;
          text = this.text;
          continue;
        }
      }
      const c = text.charCodeAt(pos);
      if (c === QUOTE) {
        this.pos = pos + 1;
        return;
      }
      if (c === BACKSLASH) {
        const next = text.charCodeAt(pos + 1);
        if (SIMPLE_ESCAPES.has(next)) {
          pos += 2;
          continue;
        }
        HEX4.lastIndex = pos + 2;
        if (next === 117 && HEX4.test(text)) {
          pos += 6;
          continue;
        }
        this.fail('bad escape in string', pos);
      }
      if (Number.isNaN(c)) this.fail('unexpected end of JSON inside a string', pos);
      this.fail('control character in string', pos);
    }
  }

  /** Reads an object key (or any string) at the current position, decoded. */
  readString(): string {
    if (this.peek() !== QUOTE) this.unexpected('a string');
    const open = this.base + this.pos;
    const kept = this.keepFrom;
    this.keepFrom = Math.min(kept, open);
    this.skipString();
    this.keepFrom = kept;
    const raw = this.text.slice(open - this.base + 1, this.pos - 1);
    return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  /** Skips one scalar (string, number, true, false, null) at the current position. */
  private skipScalar(c: number): void {
    if (c === QUOTE) {
      this.skipString();
      return;
    }
    this.ahead(5);
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.pos)) {
        this.pos += literal.length;
        return;
      }
    }
    for (;;) {
      // Number characters running into the end of what is held may go on in the next piece.
      NUMBER_CHARS.lastIndex = this.pos;
      NUMBER_CHARS.test(this.text);
      if (NUMBER_CHARS.lastIndex === this.text.length && this.more()) continue;
      NUMBER.lastIndex = this.pos;
      if (!NUMBER.test(this.text)) this.unexpected('a value');
      this.pos = NUMBER.lastIndex;
      return;
    }
  }

  private memberKey(): void {
    if (this.peek() !== QUOTE) this.unexpected('a string key');
    this.skipString();
    this.expect(COLON, '":"');
  }

  /**
   * Skips one whole value at the current position, checking it is JSON; returns its span
   * (document offsets). Any depth, no recursion: `stack` holds the open containers. With
   * `hold` false the value's text is not kept for `slice` (a large value skipped unread).
   */
  skipValue(hold = true): { start: number; end: number } {
    this.skipWhitespace();
    const start = this.base + this.pos;
    const kept = this.keepFrom;
    if (hold) this.keepFrom = Math.min(kept, start);
    const stack: number[] = [];
    let expectValue = true;
    try {
      for (;;) {
        if (expectValue) {
          const c = this.peek();
          if (c === OPEN_BRACE || c === OPEN_BRACKET) {
            this.pos++;
            const object = c === OPEN_BRACE;
            if (this.peek() !== (object ? CLOSE_BRACE : CLOSE_BRACKET)) {
              stack.push(object ? OBJECT : ARRAY);
              if (object) this.memberKey();
              continue;
            }
            this.pos++;
          } else {
            this.skipScalar(c);
          }
          expectValue = false;
        }
        const top = stack[stack.length - 1];
        if (top === undefined) return { start, end: this.base + this.pos };
        const c = this.peek();
        if (c === COMMA) {
          this.pos++;
          if (top === OBJECT) this.memberKey();
          expectValue = true;
        } else if (c === (top === OBJECT ? CLOSE_BRACE : CLOSE_BRACKET)) {
          this.pos++;
          stack.pop();
        } else {
          this.unexpected(top === OBJECT ? '"," or "}"' : '"," or "]"');
        }
      }
    } finally {
      this.keepFrom = kept;
    }
  }

  /**
   * Holds the text from document offset `from` on until `release` is called (a caller comparing
   * what it read with the text around it).
   */
  hold(from: number): void {
    this.keepFrom = from;
  }

  release(): void {
    this.keepFrom = Number.POSITIVE_INFINITY;
  }

  /** Document offset of the first `pattern` in the held text from offset `from` on, or -1. */
  indexOf(pattern: string, from: number): number {
    const at = this.text.indexOf(pattern, Math.max(0, from - this.base));
    return at === -1 ? -1 : at + this.base;
  }

  /**
   * Reads the object starting at the current position member by member: `visit(key)` is called
   * with the reader at the member's value and must read exactly that value (`skipValue`,
   * `readObject`, `members`) - `at` is the document offset of the key's opening quote. Ends
   * past the closing brace.
   */
  readObject(visit: (key: string, at: number) => void): void {
    this.expect(OPEN_BRACE, '"{"');
    if (this.peek() === CLOSE_BRACE) {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      const at = this.base + this.pos;
      const key = this.readString();
      this.expect(COLON, '":"');
      this.skipWhitespace();
      visit(key, at);
      const c = this.peek();
      if (c === CLOSE_BRACE) {
        this.pos++;
        return;
      }
      if (c !== COMMA) this.unexpected('"," or "}"');
      this.pos++;
    }
  }

  /** The members of the object at the current position, each value checked, as spans. */
  members(): JsonMember[] {
    const out: JsonMember[] = [];
    this.readObject((key) => {
      const { start, end } = this.skipValue();
      out.push({ key, start, end });
    });
    return out;
  }

  /** Only whitespace may follow the document. */
  end(): void {
    if (!Number.isNaN(this.peek())) this.unexpected('the end of the JSON text');
  }
}

/** True when `text` is one JSON document (what `JSON.parse` accepts), without building it. */
export function checkJson(text: string): { ok: true } | { ok: false; error: JsonReadError } {
  const reader = new JsonReader(text);
  try {
    reader.skipValue();
    reader.end();
    return { ok: true };
  } catch (error) {
    if (error instanceof JsonReadError) return { ok: false, error };
    throw error;
  }
}
