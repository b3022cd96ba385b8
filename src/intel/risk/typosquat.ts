import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ecosystem } from '../../ecosystems/types';

/**
 * Typosquat suspicion: a name one or two edits away from a widely used name of the same
 * ecosystem (or equal to it once separators are ignored), while not being that name. The
 * popular names are curated, versioned data files in ./popular-names/<ecosystem>.json.
 */
export interface PopularNames {
  ecosystem: Ecosystem;
  version: string;
  names: string[];
}

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'popular-names');
const cache = new Map<Ecosystem, PopularNames>();

export function popularNames(ecosystem: Ecosystem): PopularNames {
  const cached = cache.get(ecosystem);
  if (cached) return cached;
  let loaded: PopularNames;
  try {
    const parsed = JSON.parse(readFileSync(join(DIR, `${ecosystem.toLowerCase()}.json`), 'utf8'));
    loaded = { ecosystem, version: String(parsed.version), names: parsed.names as string[] };
  } catch {
    loaded = { ecosystem, version: 'none', names: [] };
  }
  cache.set(ecosystem, loaded);
  return loaded;
}

/**
 * Optimal string alignment distance (Damerau–Levenshtein with adjacent swaps), capped at `max + 1`.
 * Three rolling rows, not a matrix: policy facts judge thousands of names against every popular
 * name of their ecosystem in one evaluation.
 */
export function editDistance(a: string, b: string, max = 3): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const cols = b.length + 1;
  let before = new Int32Array(cols);
  let previous = new Int32Array(cols);
  let current = new Int32Array(cols);
  for (let j = 0; j < cols; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j < cols; j++) {
      const bj = b.charCodeAt(j - 1);
      let value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (ai === bj ? 0 : 1),
      );
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        value = Math.min(value, (before[j - 2] as number) + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    const recycled = before;
    before = previous;
    previous = current;
    current = recycled;
  }
  return previous[b.length] as number;
}

const SEPARATORS = /[-_.\s]/g;

export interface TyposquatMatch {
  similarTo: string;
  distance: number;
  /** 'edit' (typing mistakes) or 'separator' (the same letters with different separators). */
  kind: 'edit' | 'separator';
  listVersion: string;
}

/** Names shorter than this are too short to judge (every 3-letter name is 1 edit from another). */
const MIN_LENGTH = 4;

/** A list prepared once: its names as a set, and by their letters without separators. */
interface PreparedList {
  list: PopularNames;
  names: ReadonlySet<string>;
  /** The first popular name (in list order) of each separator-free spelling. */
  bare: ReadonlyMap<string, string>;
  /** Answers by name: the list is fixed for the process, and names repeat across evaluations. */
  answers: Map<string, TyposquatMatch | null>;
}

const prepared = new Map<Ecosystem, PreparedList>();
/** Remembered answers per ecosystem before the memory is cleared. */
const MAX_ANSWERS = 50_000;

function preparedList(ecosystem: Ecosystem): PreparedList {
  const cached = prepared.get(ecosystem);
  if (cached) return cached;
  const list = popularNames(ecosystem);
  const bare = new Map<string, string>();
  for (const popular of list.names) {
    const key = popular.replace(SEPARATORS, '');
    if (!bare.has(key)) bare.set(key, popular);
  }
  const made = { list, names: new Set(list.names), bare, answers: new Map() };
  prepared.set(ecosystem, made);
  return made;
}

export function typosquatSuspicion(ecosystem: Ecosystem, name: string): TyposquatMatch | null {
  const list = preparedList(ecosystem);
  const known = list.answers.get(name);
  if (known !== undefined) return known;
  const answer = judge(list, name);
  if (list.answers.size >= MAX_ANSWERS) list.answers.clear();
  list.answers.set(name, answer);
  return answer;
}

function judge(prepared: PreparedList, name: string): TyposquatMatch | null {
  const { list } = prepared;
  const lower = name.toLowerCase();
  if (lower.length < MIN_LENGTH || prepared.names.has(lower)) return null;
  // The same letters with other separators wins over any typing mistake.
  const sameLetters = prepared.bare.get(lower.replace(SEPARATORS, ''));
  if (sameLetters !== undefined) {
    return { similarTo: sameLetters, distance: 0, kind: 'separator', listVersion: list.version };
  }
  let best: TyposquatMatch | null = null;
  for (const popular of list.names) {
    // Allow one edit for short names, two from 9 characters on.
    const allowed = popular.length >= 9 ? 2 : 1;
    if (Math.abs(popular.length - lower.length) > allowed) continue;
    const distance = editDistance(lower, popular, allowed);
    if (distance <= allowed && (!best || distance < best.distance)) {
      best = { similarTo: popular, distance, kind: 'edit', listVersion: list.version };
    }
  }
  return best;
}
