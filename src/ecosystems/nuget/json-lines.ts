/**
 * One linear pass over a JSON text recording the line of every key three objects deep under a
 * top-level key (`dependencies` → framework → package in packages.lock.json). Keys are returned
 * as `${framework}\u0000${package}`. Malformed JSON is the caller's problem (JSON.parse reports
 * it); this scanner never throws and never recurses.
 */
export function nestedKeyLines(text: string, topKey: string): Map<string, number> {
  const lines = new Map<string, number>();
  let line = 1;
  let depth = 0;
  let top = '';
  let second = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) {
      line++;
      i++;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      i++;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
      i++;
    } else if (c === 34 /* " */) {
      let end = i + 1;
      let escaped = false;
      while (end < n) {
        const d = text.charCodeAt(end);
        if (d === 92 /* \ */) {
          escaped = true;
          end += 2;
          continue;
        }
        if (d === 34 || d === 10) break;
        end++;
      }
      let raw = text.slice(i + 1, end);
      if (escaped) {
        try {
          raw = JSON.parse(`"${raw}"`) as string;
        } catch {
          // keep the raw text; the key simply will not match
        }
      }
      i = end < n && text.charCodeAt(end) === 34 ? end + 1 : end;
      let j = i;
      while (j < n && (text[j] === ' ' || text[j] === '\t' || text[j] === '\r')) j++;
      if (text[j] !== ':') continue;
      if (depth === 1) top = raw;
      else if (depth === 2) second = raw;
      else if (depth === 3 && top === topKey) {
        const key = `${second}\u0000${raw}`;
        if (!lines.has(key)) lines.set(key, line);
      }
    } else {
      i++;
    }
  }
  return lines;
}
