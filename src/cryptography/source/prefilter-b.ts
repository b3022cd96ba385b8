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
  // Each word starts an identifier (or a path: `ring::`), so it must follow a word boundary.
  const alternatives = unique.length > 0 ? unique.map(escapeRegExp).join('|') : '(?!)';
  const source = `\\b(?:${alternatives})`;
  const pattern = new RegExp(source, options.ignoreCase ? 'i' : '');
  return Object.assign((text: string) => pattern.test(text), { source });
}
