/**
 * A linear-time pre-pass over Groovy/Kotlin build scripts. It yields two strings of the same
 * length as the input (so offsets and line numbers carry over):
 * - `code`: comments blanked, everything else intact (string contents are read from here);
 * - `skeleton`: comments and string contents blanked, quotes kept, so that braces, parentheses
 *   and commas can be matched without being fooled by `"${x}"` or `'a,b'`.
 * Slashy strings (`/regex/`) are not recognised: they are rare in dependency blocks and telling
 * them from division would need a real parser.
 */
export interface LexedScript {
  code: string;
  skeleton: string;
}

const NEWLINE = 10;

/** Same length, newlines kept, everything else a space. */
function blanked(segment: string): string {
  return segment.replace(/[^\n]/g, ' ');
}

/** End (exclusive) of a `${ ... }` interpolation starting at `i` (pointing at `$`). */
function interpolationEnd(text: string, i: number): number {
  let depth = 0;
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return text.length;
}

/** End (exclusive) of the string literal opening at `i`; `quote` is `'`, `"`, `\'\'\'` or `"""`. */
function stringEnd(text: string, i: number, quote: string): number {
  const triple = quote.length === 3;
  let j = i + quote.length;
  while (j < text.length) {
    const c = text[j]!;
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (quote[0] === '"' && c === '$' && text[j + 1] === '{') {
      j = interpolationEnd(text, j);
      continue;
    }
    if (!triple && text.charCodeAt(j) === NEWLINE) return j; // unterminated: stop at line end
    if (text.startsWith(quote, j)) return j + quote.length;
    j++;
  }
  return text.length;
}

export function lexScript(text: string): LexedScript {
  // Built from slices: copying runs of code is far cheaper than per-character arrays.
  const code: string[] = [];
  const skeleton: string[] = [];
  let copied = 0;
  let i = 0;
  const flush = (to: number) => {
    if (to > copied) {
      const run = text.slice(copied, to);
      code.push(run);
      skeleton.push(run);
    }
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      let end: number;
      if (text[i + 1] === '/') {
        end = text.indexOf('\n', i);
        if (end === -1) end = text.length;
      } else {
        end = text.indexOf('*/', i + 2);
        end = end === -1 ? text.length : end + 2;
      }
      flush(i);
      const blank = blanked(text.slice(i, end));
      code.push(blank);
      skeleton.push(blank);
      copied = end;
      i = end;
    } else if (c === '"' || c === "'") {
      const quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      const end = stringEnd(text, i, quote);
      const closed = end - quote.length > i && text.startsWith(quote, end - quote.length);
      const bodyEnd = closed ? end - quote.length : end;
      flush(i);
      code.push(text.slice(i, end));
      skeleton.push(quote, blanked(text.slice(i + quote.length, bodyEnd)), closed ? quote : '');
      copied = end;
      i = end;
    } else {
      i++;
    }
  }
  flush(text.length);
  return { code: code.join(''), skeleton: skeleton.join('') };
}

/** Index of the bracket closing the one at `open` in the skeleton, or -1. */
export function matchBracket(skeleton: string, open: number, limit = skeleton.length): number {
  let depth = 0;
  for (let i = open; i < limit; i++) {
    const c = skeleton[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

/** If `skeleton[start..]` is one complete string literal ending exactly at `end`, its content. */
export function stringLiteral(
  code: string,
  skeleton: string,
  start: number,
  end: number,
): string | null {
  const c = skeleton[start];
  if (c !== '"' && c !== "'") return null;
  const quote = skeleton.startsWith(c.repeat(3), start) && end - start >= 6 ? c.repeat(3) : c;
  if (end - start < quote.length * 2) return null;
  if (!skeleton.startsWith(quote, end - quote.length)) return null;
  // A quote inside the skeleton between the delimiters means two literals (concatenation etc.).
  const inner = skeleton.slice(start + quote.length, end - quote.length);
  if (inner.includes('"') || inner.includes("'")) return null;
  return code.slice(start + quote.length, end - quote.length);
}
