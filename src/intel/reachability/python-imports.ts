/**
 * Python's import grammar over a hand-written tokenizer (no regular expressions over the file):
 * `import a.b [as c], d`, `from a.b import (x, y)`, `from . import x` / `from ..pkg import y`
 * (relative: first-party), anywhere a statement can start (inside functions, `try`, after `;`).
 * `importlib.import_module('x')` and `__import__('x')` with a literal are imports; with anything
 * else they are computed imports (the caller reports unknown). Strings, comments, bracketed
 * continuation lines and backslash continuations are skipped token by token, one pass, linear in
 * the file's size (docs/reachability.md).
 */

export interface PythonImport {
  /** Absolute dotted module (`yaml`, `google.protobuf`); relative imports are left out. */
  module: string;
  line: number;
}

export interface PythonImports {
  imports: PythonImport[];
  /** Lines of `import_module(...)` / `__import__(...)` calls whose argument is not a literal. */
  /**
   * Computed `import_module` / `__import__` calls: line, and the argument's literal prefix
   * (`plugins.` of `f"plugins.{name}"` or `'plugins.' + name`; null when none is literal).
   */
  computed: { line: number; prefix: string | null }[];
}

type Token =
  | { kind: 'name'; text: string; line: number }
  | { kind: 'op'; text: string; line: number }
  | { kind: 'string'; text: string; line: number; formatted?: boolean }
  | { kind: 'newline'; line: number };

const STRING_PREFIX = /^[rRbBuUfF]{1,2}$/;

function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code > 127;
}

function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 48 && code <= 57);
}

/** Reads a string literal starting at `quote`; returns its end index (exclusive) and the lines it spans. */
function readString(text: string, start: number): { end: number; value: string; lines: number } {
  const quote = text[start] as string;
  const triple = text.startsWith(quote.repeat(3), start);
  const delimiter = triple ? quote.repeat(3) : quote;
  let i = start + delimiter.length;
  let lines = 0;
  let value = '';
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\\') {
      value += text[i + 1] ?? '';
      if (text[i + 1] === '\n') lines++;
      i += 2;
      continue;
    }
    if (c === '\n') {
      if (!triple) break; // An unterminated one-line string ends at the line's end.
      lines++;
    }
    if (text.startsWith(delimiter, i)) return { end: i + delimiter.length, value, lines };
    value += c;
    i++;
  }
  return { end: i, value, lines };
}

/** The tokens that matter for imports; newlines only where a logical line ends. */
export function* pythonTokens(text: string): Generator<Token> {
  let line = 1;
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const c = text[i] as string;
    if (c === '\n') {
      if (depth === 0) yield { kind: 'newline', line };
      line++;
      i++;
    } else if (c === '#') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === '\\' && text[i + 1] === '\n') {
      line++;
      i += 2;
    } else if (c === '"' || c === "'") {
      const read = readString(text, i);
      yield { kind: 'string', text: read.value, line };
      line += read.lines;
      i = read.end;
    } else if (isNameStart(code)) {
      let end = i + 1;
      while (end < text.length && isNameChar(text.charCodeAt(end))) end++;
      const word = text.slice(i, end);
      const next = text[end];
      if ((next === '"' || next === "'") && STRING_PREFIX.test(word)) {
        const read = readString(text, end);
        const formatted = word.includes('f') || word.includes('F');
        yield { kind: 'string', text: read.value, line, formatted };
        line += read.lines;
        i = read.end;
        continue;
      }
      yield { kind: 'name', text: word, line };
      i = end;
    } else if (c === '(' || c === '[' || c === '{') {
      depth++;
      yield { kind: 'op', text: c, line };
      i++;
    } else if (c === ')' || c === ']' || c === '}') {
      depth = Math.max(0, depth - 1);
      yield { kind: 'op', text: c, line };
      i++;
    } else if (c === ';') {
      yield { kind: 'newline', line };
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
    } else {
      yield { kind: 'op', text: c, line };
      i++;
    }
  }
  yield { kind: 'newline', line };
}

/** Collects imports from the token stream: a small state machine, one token at a time. */
export function pythonImports(text: string): PythonImports {
  const out: PythonImports = { imports: [], computed: [] };
  const tokens = [...pythonTokens(text)];
  let atStart = true;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.kind === 'newline') {
      atStart = true;
      continue;
    }
    const start = atStart;
    atStart = token.kind === 'op' && token.text === ':'; // `try: import x`, `if y: import z`
    if (token.kind !== 'name') continue;
    if (start && token.text === 'import') i = importStatement(tokens, i + 1, out);
    else if (start && token.text === 'from') i = fromStatement(tokens, i + 1, out);
    else if (token.text === 'import_module' || token.text === '__import__') {
      dynamicImport(tokens, i, out);
    }
  }
  return out;
}

/** A dotted name starting at `i`: the name and the index after it, or null. */
function dottedName(tokens: Token[], i: number): { name: string; next: number } | null {
  const first = tokens[i];
  if (first?.kind !== 'name') return null;
  let name = first.text;
  let next = i + 1;
  while (tokens[next]?.kind === 'op' && (tokens[next] as { text: string }).text === '.') {
    const part = tokens[next + 1];
    if (part?.kind !== 'name') break;
    name += `.${part.text}`;
    next += 2;
  }
  return { name, next };
}

function isOp(token: Token | undefined, text: string): boolean {
  return token?.kind === 'op' && token.text === text;
}

/** `import a.b as c, d`: every dotted name. Returns the index of the last token read. */
function importStatement(tokens: Token[], i: number, out: PythonImports): number {
  let at = i;
  for (;;) {
    const dotted = dottedName(tokens, at);
    if (!dotted) return at - 1;
    out.imports.push({ module: dotted.name, line: (tokens[at] as Token).line });
    at = dotted.next;
    const as = tokens[at];
    if (as?.kind === 'name' && as.text === 'as') at += 2;
    if (!isOp(tokens[at], ',')) return at - 1;
    at++;
  }
}

/** `from a.b import x` (the module is what is imported; `from . import x` is first-party). */
function fromStatement(tokens: Token[], i: number, out: PythonImports): number {
  let at = i;
  let dots = 0;
  while (isOp(tokens[at], '.')) {
    dots++;
    at++;
  }
  const dotted = dottedName(tokens, at);
  const keyword = tokens[dotted ? dotted.next : at];
  if (keyword?.kind !== 'name' || keyword.text !== 'import') return at;
  if (dots === 0 && dotted && dotted.name !== '__future__') {
    out.imports.push({ module: dotted.name, line: (tokens[at] as Token).line });
  }
  return dotted ? dotted.next : at;
}

/** `import_module('x'...)` / `__import__('x'...)`: a literal first argument or a computed import. */
function dynamicImport(tokens: Token[], i: number, out: PythonImports): void {
  const previous = tokens[i - 1];
  // A definition (`def import_module(`) is no call.
  if (previous?.kind === 'name' && previous.text === 'def') return;
  if (!isOp(tokens[i + 1], '(')) return;
  const argument = tokens[i + 2];
  const after = tokens[i + 3];
  const line = (tokens[i] as Token).line;
  const literal = argument?.kind === 'string' && argument.formatted !== true;
  if (literal && argument.kind === 'string' && (isOp(after, ')') || isOp(after, ','))) {
    // `import_module('.sub', package)` is relative: first-party.
    if (!argument.text.startsWith('.') && argument.text !== '') {
      out.imports.push({ module: argument.text, line });
    }
    return;
  }
  const prefix = argument?.kind === 'string' ? literalHead(argument) : null;
  out.computed.push({ line, prefix });
}

/** The literal start of a computed module name: an f-string up to its first `{`, or a string. */
function literalHead(argument: { text: string; formatted?: boolean }): string {
  if (!argument.formatted) return argument.text;
  const brace = argument.text.indexOf('{');
  return brace === -1 ? argument.text : argument.text.slice(0, brace);
}
