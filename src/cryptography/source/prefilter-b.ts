/**
 * The cheap check a detector runs on raw text before parsing: does the file contain any word
 * an API table could match? One regular expression of literal alternatives (no nesting, no
 * backtracking blow-up), so it scans at memory speed and skips most files of a repository.
 */

function escapeRegExp(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A test that is true when `text` contains one of `words` (case-insensitively if asked). */
export function keywordPrefilter(
  words: Iterable<string>,
  options: { ignoreCase?: boolean } = {},
): (text: string) => boolean {
  const unique = [...new Set([...words].filter((word) => word.length > 0))];
  unique.sort((a, b) => b.length - a.length);
  if (unique.length === 0) return () => false;
  const pattern = new RegExp(unique.map(escapeRegExp).join('|'), options.ignoreCase ? 'i' : '');
  return (text) => pattern.test(text);
}
