import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ecosystem } from '../../ecosystems/types';

/**
 * Replacement candidates for a package (docs/package-intelligence.md#replacement-candidates):
 * from the registry's own successor field, from its deprecation message ("use X instead",
 * "renamed to X", "moved to X", ...) and from a curated, versioned mapping (./curated.json).
 */

export type Confidence = 'high' | 'medium' | 'low';
export type CandidateSource = 'registry-successor' | 'deprecation-message' | 'curated';

export interface ReplacementCandidate {
  name: string;
  ecosystem: Ecosystem;
  reason: string;
  confidence: Confidence;
  /** Every source that named it, strongest first. */
  sources: CandidateSource[];
  /** The deprecation text or curated-list version it came from. */
  evidence: string;
}

interface CuratedEntry {
  ecosystem: Ecosystem;
  name: string;
  reason: string;
  successors: { name: string; confidence: Confidence }[];
}

interface CuratedFile {
  version: string;
  entries: CuratedEntry[];
}

let curatedCache: CuratedFile | null = null;

export function curatedMapping(): CuratedFile {
  if (curatedCache) return curatedCache;
  const path = join(dirname(fileURLToPath(import.meta.url)), 'curated.json');
  curatedCache = JSON.parse(readFileSync(path, 'utf8')) as CuratedFile;
  return curatedCache;
}

interface Pattern {
  regex: RegExp;
  confidence: Confidence;
  label: string;
}

// A package-like token: optional npm scope, then letters, digits and the separators names use
// (Maven group:artifact, Go module paths, Composer vendor/name). Quotes and backticks are allowed
// around it (typographic quotes as \u escapes: one non-ASCII character in the service's bundle
// makes V8 hold its whole source text at two bytes a character, docs/build.md).
const TOKEN = String.raw`[\x60'"\u201c\u2018]?(@?[A-Za-z0-9][A-Za-z0-9._~\-/:@]*[A-Za-z0-9])[\x60'"\u201d\u2019]?`;
const PATTERNS: readonly Pattern[] = [
  {
    regex: new RegExp(String.raw`\brenamed\s+(?:to|as)\s+${TOKEN}`, 'gi'),
    confidence: 'high',
    label: 'renamed to',
  },
  {
    regex: new RegExp(String.raw`\bmoved\s+(?:to|into)\s+${TOKEN}`, 'gi'),
    confidence: 'high',
    label: 'moved to',
  },
  {
    regex: new RegExp(String.raw`\b(?:replaced|superseded)\s+by\s+${TOKEN}`, 'gi'),
    confidence: 'high',
    label: 'replaced by',
  },
  {
    regex: new RegExp(String.raw`\bin\s+favou?r\s+of\s+${TOKEN}`, 'gi'),
    confidence: 'medium',
    label: 'in favour of',
  },
  {
    regex: new RegExp(String.raw`\buse\s+${TOKEN}\s+instead\b`, 'gi'),
    confidence: 'high',
    label: 'use X instead',
  },
  {
    regex: new RegExp(String.raw`\b(?:please\s+)?(?:use|try)\s+${TOKEN}`, 'gi'),
    confidence: 'medium',
    label: 'use X',
  },
  {
    regex: new RegExp(String.raw`\b(?:switch|migrate|upgrade)\s+to\s+${TOKEN}`, 'gi'),
    confidence: 'medium',
    label: 'switch to',
  },
];

// Words that follow "use"/"moved to" without naming a package.
const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'this',
  'that',
  'it',
  'its',
  'another',
  'other',
  'instead',
  'native',
  'built-in',
  'builtin',
  'version',
  'versions',
  'latest',
  'newer',
  'new',
  'at',
  'your',
  'own',
  'of',
  'is',
  'in',
  'and',
  'or',
  'with',
  'by',
  'for',
  'on',
  'v2',
  'v3',
  'at-your-own-risk',
  'caution',
  'something',
  'more',
  'modern',
  'maintained',
  'alternative',
  'alternatives',
  'github',
  'npm',
  'node',
  'not',
]);

const NPM_PACKAGE_URL = /npmjs\.(?:com|org)\/(?:package\/)?((?:@[^/\s]+\/)?[^/\s?#]+)/i;

function cleanToken(raw: string, ecosystem: Ecosystem): string | null {
  let token = raw.trim();
  if (/^https?:/i.test(token) || token.startsWith('//')) return null;
  token = token.replace(/[.,;:!?)]+$/, '');
  // npm: strip a version or range after the name (`foo@^2`, `@scope/foo@2.0.0`).
  if (ecosystem === 'npm') {
    const at = token.indexOf('@', 1);
    if (at > 0) token = token.slice(0, at);
  }
  if (token.length < 2 || token.length > 214) return null;
  if (STOP_WORDS.has(token.toLowerCase())) return null;
  if (/^v?\d+(\.\d+)*$/.test(token)) return null;
  return token;
}

/** Package names a deprecation message points to, with how sure the wording is. */
export function parseDeprecationMessage(
  message: string,
  ecosystem: Ecosystem,
): { name: string; confidence: Confidence; phrase: string }[] {
  const text = message.slice(0, 2000);
  const found: { name: string; confidence: Confidence; phrase: string; index: number }[] = [];
  const url = NPM_PACKAGE_URL.exec(text);
  if (
    ecosystem === 'npm' &&
    url?.[1] &&
    /\b(?:moved|renamed|use|replaced|superseded)\b/i.test(text)
  ) {
    found.push({
      name: decodeURIComponent(url[1]),
      confidence: 'medium',
      phrase: 'package link',
      index: url.index,
    });
  }
  for (const pattern of PATTERNS) {
    pattern.regex.lastIndex = 0;
    for (const match of text.matchAll(pattern.regex)) {
      const name = cleanToken(match[1] ?? '', ecosystem);
      if (!name) continue;
      if (found.some((f) => f.name === name)) continue;
      found.push({
        name,
        confidence: pattern.confidence,
        phrase: pattern.label,
        index: match.index ?? 0,
      });
    }
  }
  return found
    .sort((a, b) => a.index - b.index)
    .map(({ name, confidence, phrase }) => ({ name, confidence, phrase }));
}

const RANK: Record<Confidence, number> = { high: 3, medium: 2, low: 1 };

export interface ReplacementInput {
  ecosystem: Ecosystem;
  name: string;
  /** Package-level deprecation message, or the latest stable version's. */
  deprecated: string | null;
  /** The registry's own successor field. */
  successor: string | null;
  normaliseName: (name: string) => string;
}

export function replacementCandidates(input: ReplacementInput): ReplacementCandidate[] {
  const self = input.normaliseName(input.name);
  const byName = new Map<string, ReplacementCandidate>();
  const add = (candidate: ReplacementCandidate) => {
    let name: string;
    try {
      name = input.normaliseName(candidate.name);
    } catch {
      return;
    }
    if (name === '' || name === self) return;
    const existing = byName.get(name);
    if (!existing) {
      byName.set(name, { ...candidate, name });
      return;
    }
    for (const source of candidate.sources) {
      if (!existing.sources.includes(source)) existing.sources.push(source);
    }
    if (RANK[candidate.confidence] > RANK[existing.confidence]) {
      existing.confidence = candidate.confidence;
      existing.reason = candidate.reason;
      existing.evidence = candidate.evidence;
    }
  };

  if (input.successor) {
    add({
      name: input.successor,
      ecosystem: input.ecosystem,
      reason: 'the registry names it as the successor',
      confidence: 'high',
      sources: ['registry-successor'],
      evidence: input.successor,
    });
  }
  if (input.deprecated) {
    for (const found of parseDeprecationMessage(input.deprecated, input.ecosystem)) {
      add({
        name: found.name,
        ecosystem: input.ecosystem,
        reason: `the deprecation message says "${found.phrase}"`,
        confidence: found.confidence,
        sources: ['deprecation-message'],
        evidence: input.deprecated.slice(0, 500),
      });
    }
  }
  const curated = curatedMapping();
  for (const entry of curated.entries) {
    if (entry.ecosystem !== input.ecosystem || input.normaliseName(entry.name) !== self) continue;
    for (const successor of entry.successors) {
      add({
        name: successor.name,
        ecosystem: input.ecosystem,
        reason: entry.reason,
        confidence: successor.confidence,
        sources: ['curated'],
        evidence: `curated replacements ${curated.version}`,
      });
    }
  }
  return [...byName.values()].sort((a, b) => RANK[b.confidence] - RANK[a.confidence]);
}
