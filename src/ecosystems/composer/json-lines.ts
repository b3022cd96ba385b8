/**
 * Line numbers of shallow JSON values, found in one linear pass without building the values.
 * Used after `JSON.parse` succeeded, so the scanner can assume well-formed input; on anything
 * odd it just records fewer lines. Iterative (no recursion), so nesting depth cannot blow the
 * stack.
 */

interface Frame {
  object: boolean;
  /** Current key (objects) or element index (arrays). */
  key: string | number;
  expectKey: boolean;
}

/** Joins a value's path into a map key; NUL cannot occur in a JSON key read by JSON.parse here. */
export function pathKey(...parts: Array<string | number>): string {
  return parts.join('\u0000');
}

function decodeJsonString(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/**
 * Maps `pathKey(...path)` to the 1-based line where the value starts, for every value whose
 * path has between 1 and `maxDepth` parts (`['packages', 3]`, `['require', 'vendor/name']`).
 */
export function jsonValueLines(text: string, maxDepth: number): Map<string, number> {
  const lines = new Map<string, number>();
  const stack: Frame[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;

  const valueStarts = (): void => {
    if (stack.length === 0 || stack.length > maxDepth) return;
    lines.set(pathKey(...stack.map((f) => f.key)), line);
  };

  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      i++;
    } else if (c === 32 || c === 9 || c === 13 || c === 58 /* : */) {
      i++;
    } else if (c === 34 /* " */) {
      // JSON strings hold no raw newlines, so the closing quote can be found with indexOf: a
      // quote preceded by an odd run of backslashes is escaped.
      let j = text.indexOf('"', i + 1);
      while (j > 0 && text.charCodeAt(j - 1) === 92) {
        let backslashes = 1;
        while (text.charCodeAt(j - 1 - backslashes) === 92) backslashes++;
        if (backslashes % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      if (j < 0) j = n;
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        const raw = text.slice(i + 1, j);
        top.key = raw.includes('\\') ? decodeJsonString(raw) : raw;
        top.expectKey = false;
      } else valueStarts();
      i = j + 1;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      valueStarts();
      stack.push({ object: c === 123, key: c === 123 ? '' : 0, expectKey: c === 123 });
      i++;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
      i++;
    } else if (c === 44 /* , */) {
      const top = stack[stack.length - 1];
      if (top?.object) top.expectKey = true;
      else if (top) top.key = (top.key as number) + 1;
      i++;
    } else {
      // number, true, false, null
      valueStarts();
      i++;
      while (i < n && !/[\s,}\]]/.test(text.charAt(i))) i++;
    }
  }
  return lines;
}
