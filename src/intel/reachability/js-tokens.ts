/**
 * A single linear pass over JavaScript / TypeScript / JSON(C, 5) text that yields its string
 * literals, names and punctuation with their line: enough to read tool configurations
 * (`plugins: ['vue']`) without evaluating them. Comments, regular expression literals and
 * template literals (with nested `${}`) are skipped or split correctly; an unterminated string
 * ends at its line and an unterminated comment at the end of the text, so hostile input costs
 * linear time (no backtracking).
 */

export interface JsToken {
  kind: 'string' | 'name' | 'punct';
  value: string;
  line: number;
  /** Offset of the token's first character. */
  start: number;
}

/** Names after which a `/` starts a regular expression rather than a division. */
const KEYWORDS_BEFORE_EXPRESSION: ReadonlySet<string> = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'yield',
  'await',
  'instanceof',
]);

function isNameChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 36 ||
    code > 127
  );
}

function regexAllowed(previous: JsToken | undefined): boolean {
  if (!previous) return true;
  if (previous.kind === 'string') return false;
  if (previous.kind === 'name') return KEYWORDS_BEFORE_EXPRESSION.has(previous.value);
  return previous.value !== ')' && previous.value !== ']' && previous.value !== '}';
}

class Scanner {
  readonly tokens: JsToken[] = [];
  line = 1;
  i = 0;
  /** Open `{` (false) and template `${` (true), innermost last. */
  private readonly braces: boolean[] = [];

  constructor(private readonly text: string) {}

  run(): JsToken[] {
    const text = this.text;
    while (this.i < text.length) {
      const c = text[this.i] as string;
      const next = text[this.i + 1];
      if (c === '\n') {
        this.line++;
        this.i++;
      } else if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (c === '/' && next === '/') this.skipLine();
      else if (c === '/' && next === '*') this.skipBlockComment();
      else if (c === '"' || c === "'") this.quoted(c);
      else if (c === '`') this.template(this.i + 1, this.i);
      else if (c === '}' && this.braces.at(-1) === true) {
        this.braces.pop();
        this.template(this.i + 1, this.i);
      } else if (c === '/' && regexAllowed(this.tokens.at(-1))) this.skipRegex();
      else if (isNameChar(text.charCodeAt(this.i))) this.name();
      else this.punct(c);
    }
    return this.tokens;
  }

  private push(kind: JsToken['kind'], value: string, line: number, start: number): void {
    this.tokens.push({ kind, value, line, start });
  }

  private skipLine(): void {
    const end = this.text.indexOf('\n', this.i);
    this.i = end === -1 ? this.text.length : end;
  }

  private skipBlockComment(): void {
    const end = this.text.indexOf('*/', this.i + 2);
    const stop = end === -1 ? this.text.length : end + 2;
    for (let j = this.i; j < stop; j++) if (this.text[j] === '\n') this.line++;
    this.i = stop;
  }

  private quoted(quote: string): void {
    const start = this.i;
    let value = '';
    let j = this.i + 1;
    for (; j < this.text.length; j++) {
      const c = this.text[j] as string;
      if (c === quote || c === '\n') break;
      if (c === '\\') {
        j++;
        if (this.text[j] === '\n') this.line++;
        value += this.text[j] ?? '';
      } else value += c;
    }
    this.push('string', value, this.line, start);
    this.i = this.text[j] === quote ? j + 1 : j;
  }

  /** A template literal's text from `from` to its end or to the next `${`. */
  private template(from: number, start: number): void {
    const line = this.line;
    let value = '';
    let j = from;
    for (; j < this.text.length; j++) {
      const c = this.text[j] as string;
      if (c === '`') break;
      if (c === '$' && this.text[j + 1] === '{') {
        this.push('string', value, line, start);
        this.braces.push(true);
        this.i = j + 2;
        return;
      }
      if (c === '\n') this.line++;
      if (c === '\\') {
        j++;
        if (this.text[j] === '\n') this.line++;
        value += this.text[j] ?? '';
      } else value += c;
    }
    this.push('string', value, line, start);
    this.i = j + 1;
  }

  private skipRegex(): void {
    let inClass = false;
    let j = this.i + 1;
    for (; j < this.text.length; j++) {
      const c = this.text[j];
      if (c === '\n') break;
      if (c === '\\') j++;
      else if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) break;
    }
    this.push('punct', '/', this.line, this.i);
    this.i = j + 1;
  }

  private name(): void {
    const start = this.i;
    let j = this.i;
    while (j < this.text.length && isNameChar(this.text.charCodeAt(j))) j++;
    this.push('name', this.text.slice(start, j), this.line, start);
    this.i = j;
  }

  private punct(c: string): void {
    if (c === '{') this.braces.push(false);
    else if (c === '}') this.braces.pop();
    this.push('punct', c, this.line, this.i);
    this.i++;
  }
}

export function jsTokens(text: string): JsToken[] {
  return new Scanner(text).run();
}
