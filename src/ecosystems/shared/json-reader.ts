/**
 * An incremental JSON reader over text already in memory (docs/decisions/0008-incremental-json-reader.md):
 * it checks the whole text against the JSON grammar (RFC 8259, exactly what `JSON.parse` accepts)
 * without building any value, and hands out the members of an object one at a time as spans of
 * the text, so a caller can parse only the values it needs, one small value at a time, instead of
 * holding a whole 50 MB lockfile as one tree. It never recurses (an explicit stack of open
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
const SIMPLE_ESCAPES = new Set([QUOTE, BACKSLASH, 47, 98, 102, 110, 114, 116]);

const OBJECT = 1;
const ARRAY = 2;

export class JsonReader {
  /** The next unread offset. */
  pos = 0;

  constructor(readonly text: string) {}

  /** Throws at `offset` (default: the current position) with the line worked out. */
  fail(message: string, offset = this.pos): never {
    let line = 1;
    const stop = Math.min(offset, this.text.length);
    for (
      let at = this.text.indexOf('\n');
      at !== -1 && at < stop;
      at = this.text.indexOf('\n', at + 1)
    ) {
      line++;
    }
    throw new JsonReadError(message, offset, line);
  }

  skipWhitespace(): void {
    const { text } = this;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === SPACE || c === NEWLINE || c === CR || c === TAB) pos++;
      else break;
    }
    this.pos = pos;
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
    if (this.pos >= this.text.length) this.fail(`unexpected end of JSON (expected ${what})`);
    const found = JSON.stringify(this.text.charAt(this.pos));
    return this.fail(`unexpected ${found} (expected ${what})`);
  }

  /** Skips a string starting at the current position (its opening quote), checking escapes. */
  private skipString(): void {
    const { text } = this;
    let pos = this.pos + 1;
    for (;;) {
      PLAIN_RUN.lastIndex = pos;
      PLAIN_RUN.test(text);
      pos = PLAIN_RUN.lastIndex;
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
    const open = this.pos;
    this.skipString();
    const raw = this.text.slice(open + 1, this.pos - 1);
    return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  /** Skips one scalar (string, number, true, false, null) at the current position. */
  private skipScalar(c: number): void {
    if (c === QUOTE) {
      this.skipString();
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.pos)) {
        this.pos += literal.length;
        return;
      }
    }
    NUMBER.lastIndex = this.pos;
    if (!NUMBER.test(this.text)) this.unexpected('a value');
    this.pos = NUMBER.lastIndex;
  }

  private memberKey(): void {
    if (this.peek() !== QUOTE) this.unexpected('a string key');
    this.skipString();
    this.expect(COLON, '":"');
  }

  /**
   * Skips one whole value at the current position, checking it is JSON; returns its span. Any
   * depth, no recursion: `stack` holds the open containers.
   */
  skipValue(): { start: number; end: number } {
    this.skipWhitespace();
    const start = this.pos;
    const stack: number[] = [];
    let expectValue = true;
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
      if (top === undefined) return { start, end: this.pos };
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
  }

  /**
   * Reads the object starting at the current position member by member: `visit(key)` is called
   * with the reader at the member's value and must read exactly that value (`skipValue`,
   * `readObject`, `members`). Ends past the closing brace.
   */
  readObject(visit: (key: string) => void): void {
    this.expect(OPEN_BRACE, '"{"');
    if (this.peek() === CLOSE_BRACE) {
      this.pos++;
      return;
    }
    for (;;) {
      const key = this.readString();
      this.expect(COLON, '":"');
      this.skipWhitespace();
      visit(key);
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
