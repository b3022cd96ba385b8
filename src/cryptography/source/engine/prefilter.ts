/**
 * The cheap checks a detector runs on raw text before parsing. A file is parsed only when it
 * names a crypto module or library (the module gate) and also a public-key API or algorithm
 * the language's rules match (the API gate): a file that imports a crypto module only to hash,
 * make random ids or run a symmetric cipher is not parsed. Each check is one regular
 * expression of literal alternatives (no nesting, no backtracking blow-up), so it scans at
 * memory speed.
 */

function escapeRegExp(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface Prefilter {
  (text: string): boolean;
  /** The regular expression's source, to combine it with others. */
  source: string;
}

function prefilterOf(source: string, ignoreCase = false): Prefilter {
  const pattern = new RegExp(source, ignoreCase ? 'i' : '');
  return Object.assign((text: string) => pattern.test(text), { source });
}

function alternativesOf(words: Iterable<string>, spell: (word: string) => string): string {
  const unique = [...new Set([...words].filter((word) => word.length > 0))];
  unique.sort((a, b) => b.length - a.length);
  return unique.length > 0 ? unique.map(spell).join('|') : '(?!)';
}

/** A test that is true when `text` contains one of `words` (case-insensitively if asked). */
export function keywordPrefilter(
  words: Iterable<string>,
  options: { ignoreCase?: boolean } = {},
): Prefilter {
  // Each word is a whole identifier (or a path, `ring::`, or a call, `hash(`): it starts at a
  // word boundary and, when it ends in a word character, is not followed by one.
  return prefilterOf(`\\b(?:${alternativesOf(words, wholeWord)})`, options.ignoreCase);
}

function wholeWord(word: string): string {
  if (word.endsWith('(')) return `${escapeRegExp(word.slice(0, -1))}\\s*\\(`;
  return /\w$/.test(word) ? `${escapeRegExp(word)}(?!\\w)` : escapeRegExp(word);
}

/** Short lower-case API names (`sign`, `open`, `box`) that prose and unrelated code use too. */
const GENERIC = /^[a-z]{1,8}$/;

/**
 * A test that is true when `text` names one of the API `names` the way code reaches it: a
 * distinctive name (`generateKeyPairSync`, `SigningMethodRS256`) anywhere as a whole word; a
 * generic one (`sign`, `encrypt`) only as a member (`.sign`), in an import or destructuring
 * list (`{ sign`, `, sign`), or imported by name (`import sign`).
 */
export function apiNamePrefilter(names: Iterable<string>): Prefilter {
  const all = [...names].filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
  const generic = all.filter((name) => GENERIC.test(name));
  const distinctive = all.filter((name) => !GENERIC.test(name));
  const parts = [`\\b(?:${alternativesOf(distinctive, escapeRegExp)})\\b`];
  if (generic.length > 0) {
    const words = alternativesOf(generic, escapeRegExp);
    parts.push(`(?:\\.|[{,]\\s*|\\bimport\\s+)(?:${words})\\b`);
  }
  return prefilterOf(parts.join('|'));
}

/** A test that is true when every one of `checks` is (each check runs on its own). */
export function allOf(...checks: readonly Prefilter[]): Prefilter {
  const test = (text: string) => checks.every((check) => check(text));
  const source = `^${checks.map((check) => `(?=[\\s\\S]*?(?:${check.source}))`).join('')}`;
  return Object.assign(test, { source });
}

/** A global pattern matching any of `words` as a whole word, for finding them in a text. */
export function wordsPattern(words: Iterable<string>): RegExp {
  return new RegExp(`\\b(?:${alternativesOf(words, escapeRegExp)})\\b`, 'g');
}

/** A test that is true when any one of `checks` is. */
export function anyOf(...checks: readonly Prefilter[]): Prefilter {
  return prefilterOf(checks.map((check) => `(?:${check.source})`).join('|'));
}

/** A test from a regular expression (the module gates languages write by hand). */
export function patternPrefilter(pattern: RegExp): Prefilter {
  return prefilterOf(pattern.source, pattern.flags.includes('i'));
}
