/**
 * Go's import declarations over a small tokenizer: after the `package` clause, `import "x"`,
 * `import alias "x"` and `import ( ... )` blocks (with `_`, `.` and named imports, interpreted
 * and raw string paths), until the first other declaration (Go allows imports nowhere else).
 * Comments are skipped; nothing past the imports is read (docs/reachability.md).
 */

export interface GoImport {
  path: string;
  line: number;
}

type Token = { kind: 'word' | 'string' | 'op'; text: string; line: number };

/** Tokens up to the end of the import declarations: words, string literals, `(`/`)`/`;`. */
function* goTokens(text: string): Generator<Token> {
  let line = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      for (let j = i; j < stop; j++) if (text.charCodeAt(j) === 10) line++;
      i = stop;
    } else if (c === '"' || c === '`') {
      const start = line;
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== c) {
        if (c === '"' && text[j] === '\\') {
          value += text[j + 1] ?? '';
          j += 2;
          continue;
        }
        if (text[j] === '\n') {
          if (c === '"') break;
          line++;
        }
        value += text[j];
        j++;
      }
      yield { kind: 'string', text: value, line: start };
      i = j + 1;
    } else if (/[\w.]/.test(c)) {
      let j = i + 1;
      while (j < text.length && /[\w.]/.test(text[j] as string)) j++;
      yield { kind: 'word', text: text.slice(i, j), line };
      i = j;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else {
      yield { kind: 'op', text: c, line };
      i++;
    }
  }
}

/** The import paths of one Go file, in order; empty when it has no package clause. */
export function goImports(text: string): GoImport[] {
  const tokens = goTokens(text);
  const next = () => {
    const step = tokens.next();
    return step.done ? undefined : step.value;
  };
  let token = next();
  if (token?.text !== 'package') return [];
  next(); // the package name
  const out: GoImport[] = [];
  token = next();
  for (;;) {
    while (token?.kind === 'op' && token.text === ';') token = next();
    if (token?.kind !== 'word' || token.text !== 'import') return out;
    token = next();
    if (token?.kind === 'op' && token.text === '(') {
      token = next();
      while (token && !(token.kind === 'op' && token.text === ')')) {
        if (token.kind === 'string') out.push({ path: token.text, line: token.line });
        token = next();
      }
      token = next();
      continue;
    }
    if (token?.kind === 'word') token = next(); // alias, `_` or `.`
    if (token?.kind !== 'string') return out;
    out.push({ path: token.text, line: token.line });
    token = next();
  }
}
