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

/** Optimal string alignment distance (Damerau–Levenshtein with adjacent swaps), capped at `max + 1`. */
export function editDistance(a: string, b: string, max = 3): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    let rowMin = Number.POSITIVE_INFINITY;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (d[i - 1]?.[j] ?? 0) + 1,
        (d[i]?.[j - 1] ?? 0) + 1,
        (d[i - 1]?.[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (d[i - 2]?.[j - 2] ?? 0) + 1);
      }
      (d[i] as number[])[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
  }
  return d[a.length]?.[b.length] ?? max + 1;
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

export function typosquatSuspicion(ecosystem: Ecosystem, name: string): TyposquatMatch | null {
  const list = popularNames(ecosystem);
  const lower = name.toLowerCase();
  if (lower.length < MIN_LENGTH || list.names.includes(lower)) return null;
  const bare = lower.replace(SEPARATORS, '');
  let best: TyposquatMatch | null = null;
  for (const popular of list.names) {
    if (popular.replace(SEPARATORS, '') === bare) {
      return { similarTo: popular, distance: 0, kind: 'separator', listVersion: list.version };
    }
    // Allow one edit for short names, two from 9 characters on.
    const allowed = popular.length >= 9 ? 2 : 1;
    const distance = editDistance(lower, popular, allowed);
    if (distance <= allowed && (!best || distance < best.distance)) {
      best = { similarTo: popular, distance, kind: 'edit', listVersion: list.version };
    }
  }
  return best;
}
