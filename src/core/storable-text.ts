/**
 * Text PostgreSQL cannot store as text or jsonb: the NUL character (also what the JSON escape
 * `\u0000` becomes once parsed) and unpaired UTF-16 surrogates, which are no Unicode text at all.
 * The one owner of that rule: the HTTP edge refuses such input, scans drop such entries, the audit
 * log and log lines replace it (docs/http-rules.md#text-the-database-cannot-store).
 */

const NUL = '\u0000';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point.
  /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Why `text` cannot be stored, or null when it can. */
export function unstorableReason(text: string): string | null {
  if (text.includes(NUL)) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'must not contain unpaired UTF-16 surrogates';
  return null;
}

export function isStorableText(text: string): boolean {
  return unstorableReason(text) === null;
}

/** `text` made storable: NUL and lone surrogates become U+FFFD (log lines, audit entries). */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE_ALL, '\ufffd');
}
