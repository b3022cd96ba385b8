/**
 * The cheap check a detector runs on raw text before parsing: does the file contain any word
 * an API table could match? One regular expression of literal alternatives (no nesting, no
 * backtracking blow-up), so it scans at memory speed and skips most files of a repository.
 */

function escapeRegExp(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface Prefilter {
  (text: string): boolean;
  /** The regular expression's source, to combine it with others. */
  source: string;
}

/** A test that is true when `text` contains one of `words` (case-insensitively if asked). */
export function keywordPrefilter(
  words: Iterable<string>,
  options: { ignoreCase?: boolean } = {},
): Prefilter {
  const unique = [...new Set([...words].filter((word) => word.length > 0))];
  unique.sort((a, b) => b.length - a.length);
  // Each word is a whole identifier (or a path, `ring::`, or a call, `hash(`): it starts at a
  // word boundary and, when it ends in a word character, is not followed by one.
  const alternatives = unique.length > 0 ? unique.map(wholeWord).join('|') : '(?!)';
  const source = `\\b(?:${alternatives})`;
  const pattern = new RegExp(source, options.ignoreCase ? 'i' : '');
  return Object.assign((text: string) => pattern.test(text), { source });
}

function wholeWord(word: string): string {
  if (word.endsWith('(')) return `${escapeRegExp(word.slice(0, -1))}\\s*\\(`;
  return /\w$/.test(word) ? `${escapeRegExp(word)}(?!\\w)` : escapeRegExp(word);
}

/** A global pattern matching any of `words` as a whole word, for finding them in a text. */
export function wordsPattern(words: Iterable<string>): RegExp {
  const unique = [...new Set([...words].filter((word) => word.length > 0))];
  unique.sort((a, b) => b.length - a.length);
  const alternatives = unique.length > 0 ? unique.map(escapeRegExp).join('|') : '(?!)';
  return new RegExp(`\\b(?:${alternatives})\\b`, 'g');
}
