/**
 * Shell-style variable substitution as Dockerfiles (ARG) and Compose files (environment) do it:
 * `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:+alt}`, `${VAR+alt}`,
 * `${VAR:?message}`, `${VAR?message}`. Nothing is read from the real environment: only the
 * values given (ARG defaults) and the defaults written in the text count. A variable that stays
 * unknown becomes `UNRESOLVED` so the caller can tell which part of an image reference it hit.
 */

/** Stands in for an unknown variable's value; cannot occur in a Dockerfile or YAML scalar. */
export const UNRESOLVED = '\u0000';

export interface SubstituteOptions {
  /** Compose: `$$` is a literal `$`. */
  dollarDollar?: boolean;
  /** Dockerfile: the escape character (`\` or a backtick) before `$` makes it literal. */
  escape?: string;
}

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
/** Nested defaults (`${A:-${B:-x}}`) deeper than this are left unresolved. */
const MAX_DEPTH = 8;

/** Index of the `}` closing the `${` whose body starts at `from`, or -1. */
function closingBrace(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

export function substitute(
  text: string,
  lookup: (name: string) => string | undefined,
  options: SubstituteOptions = {},
  depth = 0,
): string {
  if (!text.includes('$')) return text;
  if (depth > MAX_DEPTH) return UNRESOLVED;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (options.escape !== undefined && c === options.escape && text.charAt(i + 1) === '$') {
      out += '$';
      i += 2;
      continue;
    }
    if (c !== '$') {
      out += c;
      i++;
      continue;
    }
    const next = text.charAt(i + 1);
    if (options.dollarDollar && next === '$') {
      out += '$';
      i += 2;
      continue;
    }
    if (next === '{') {
      const end = closingBrace(text, i + 2);
      if (end < 0) {
        out += UNRESOLVED;
        break;
      }
      out += expandBraced(text.slice(i + 2, end), lookup, options, depth);
      i = end + 1;
      continue;
    }
    if (NAME_START.test(next)) {
      let j = i + 1;
      while (j < text.length && NAME_CHAR.test(text.charAt(j))) j++;
      out += lookup(text.slice(i + 1, j)) ?? UNRESOLVED;
      i = j;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

function expandBraced(
  body: string,
  lookup: (name: string) => string | undefined,
  options: SubstituteOptions,
  depth: number,
): string {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-+?])([\s\S]*))?$/.exec(body);
  if (!m) return UNRESOLVED;
  const value = lookup(m[1]!);
  const operator = m[3];
  if (operator === undefined) return value ?? UNRESOLVED;
  const colon = m[2] === ':';
  // With a colon an empty value counts as unset, as in the shell.
  const set = colon ? value !== undefined && value !== '' : value !== undefined;
  const word = () => substitute(m[4] ?? '', lookup, options, depth + 1);
  if (operator === '-') return set ? value! : word();
  if (operator === '+') return set ? word() : '';
  return set ? value! : UNRESOLVED;
}
