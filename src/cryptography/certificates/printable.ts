/** A name from a hostile file (an alias, a comment), shown to people: no control characters, bounded. */
export function printable(value: string, max = 128): string | undefined {
  let out = '';
  for (const char of value) {
    if (out.length >= max) break;
    const code = char.codePointAt(0) ?? 0;
    if (code >= 32 && code !== 127 && !(code >= 0x80 && code < 0xa0)) out += char;
  }
  out = out.trim();
  return out || undefined;
}
