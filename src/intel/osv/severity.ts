import cvssCalculator from 'ae-cvss-calculator';
import type { CvssScore, CvssVersion, Severity, SeverityRating } from './types';

/**
 * CVSS base scores from vectors, with ae-cvss-calculator (FIRST's v3.0, v3.1 and v4.0 formulas).
 * The library is CommonJS without an ESM entry: its default import is its module.exports (Node's
 * interop and esbuild's in a `"type": "module"` package agree on that).
 */
interface ScoreResult {
  base?: number;
}
interface CvssClass {
  new (vector: string): { calculateScores: () => ScoreResult };
}
interface Calculator {
  Cvss3P0: CvssClass;
  Cvss3P1: CvssClass;
  Cvss4P0: CvssClass;
}
const calculator = cvssCalculator as unknown as Calculator;

// Every base metric must be present exactly once with a legal value: the library silently fills
// missing metrics with "X" (giving score 0), so a partial or misspelt vector is rejected here.
const V3_BASE: Record<string, string> = {
  AV: 'NALP',
  AC: 'LH',
  PR: 'NLH',
  UI: 'NR',
  S: 'UC',
  C: 'HLN',
  I: 'HLN',
  A: 'HLN',
};
const V4_BASE: Record<string, string> = {
  AV: 'NALP',
  AC: 'LH',
  AT: 'NP',
  PR: 'NLH',
  UI: 'NPA',
  VC: 'HLN',
  VI: 'HLN',
  VA: 'HLN',
  SC: 'HLN',
  SI: 'HLN',
  SA: 'HLN',
};

const MAX_VECTOR_LENGTH = 512;

function baseMetricsComplete(parts: string[], base: Record<string, string>): boolean {
  const seen = new Set<string>();
  for (const part of parts) {
    const colon = part.indexOf(':');
    if (colon <= 0) return false;
    const metric = part.slice(0, colon);
    const value = part.slice(colon + 1);
    if (seen.has(metric)) return false;
    seen.add(metric);
    const legal = Object.hasOwn(base, metric) ? base[metric] : undefined;
    if (legal !== undefined && (value.length !== 1 || !legal.includes(value))) return false;
  }
  return Object.keys(base).every((metric) => seen.has(metric));
}

/** CVSS v3/v4 qualitative rating; 0.0 is "None" → null. */
export function ratingFromScore(score: number): SeverityRating | null {
  if (score <= 0) return null;
  if (score < 4) return 'low';
  if (score < 7) return 'medium';
  if (score < 9) return 'high';
  return 'critical';
}

type VectorScore = { version: CvssVersion; score: number } | null;

/**
 * Scores by vector. A score is a pure function of the vector string, and the same vectors recur
 * across records and runs: one computation serves them all, and the offline audit keeps the
 * table between runs (advisory-cache.ts). Bounded, since the server process lives long.
 */
const scoreMemo = new Map<string, VectorScore>();
const SCORE_MEMO_LIMIT = 200_000;
const VERSIONS: readonly CvssVersion[] = ['3.0', '3.1', '4.0'];

export function scoreVector(vector: string): VectorScore {
  if (typeof vector !== 'string') return null;
  const known = scoreMemo.get(vector);
  if (known !== undefined) return known;
  const scored = computeScore(vector);
  if (scoreMemo.size < SCORE_MEMO_LIMIT) scoreMemo.set(vector, scored);
  return scored;
}

/** The remembered scores, for saving: vector → [version, score], or null for a malformed one. */
export function rememberedScores(): Record<string, [CvssVersion, number] | null> {
  const out: Record<string, [CvssVersion, number] | null> = {};
  for (const [vector, scored] of scoreMemo) out[vector] = scored && [scored.version, scored.score];
  return out;
}

/**
 * Takes back scores saved by `rememberedScores`; entries of the wrong shape are skipped. Returns
 * how many were taken.
 */
export function rememberScores(saved: unknown): number {
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return 0;
  let taken = 0;
  for (const [vector, value] of Object.entries(saved)) {
    if (scoreMemo.size >= SCORE_MEMO_LIMIT || vector.length > MAX_VECTOR_LENGTH) break;
    if (value === null) {
      scoreMemo.set(vector, null);
    } else if (
      Array.isArray(value) &&
      VERSIONS.includes(value[0]) &&
      typeof value[1] === 'number' &&
      value[1] >= 0 &&
      value[1] <= 10
    ) {
      scoreMemo.set(vector, { version: value[0] as CvssVersion, score: value[1] });
    } else {
      continue;
    }
    taken++;
  }
  return taken;
}

/** How many scores are remembered (the offline audit saves the table when it grew). */
export function rememberedScoreCount(): number {
  return scoreMemo.size;
}

/** Base score of a CVSS v3.0, v3.1 or v4.0 vector; null when it is not one or is malformed. */
function computeScore(vector: string): VectorScore {
  if (typeof vector !== 'string' || vector.length > MAX_VECTOR_LENGTH) return null;
  const parts = vector.trim().split('/');
  const prefix = parts.shift();
  let version: CvssVersion;
  if (prefix === 'CVSS:3.0') version = '3.0';
  else if (prefix === 'CVSS:3.1') version = '3.1';
  else if (prefix === 'CVSS:4.0') version = '4.0';
  else return null;
  if (!baseMetricsComplete(parts, version === '4.0' ? V4_BASE : V3_BASE)) return null;
  const Class =
    version === '3.0'
      ? calculator.Cvss3P0
      : version === '3.1'
        ? calculator.Cvss3P1
        : calculator.Cvss4P0;
  try {
    const base = new Class(vector.trim()).calculateScores().base;
    if (typeof base !== 'number' || !Number.isFinite(base) || base < 0 || base > 10) return null;
    return { version, score: base };
  } catch {
    // The library throws on metric values it does not know; that is a malformed vector.
    return null;
  }
}

/** Scores one OSV `severity[]` entry. */
export function scoreSeverityEntry(type: string, vector: string): CvssScore {
  const scored = type === 'CVSS_V3' || type === 'CVSS_V4' ? scoreVector(vector) : null;
  // A CVSS_V3 entry carrying a v4 vector (or the reverse) is still scored by its own prefix.
  return {
    type,
    vector,
    version: scored?.version ?? null,
    score: scored?.score ?? null,
    rating: scored ? ratingFromScore(scored.score) : null,
  };
}

/** GHSA/PyPA/RubyGems database-specific severities; MODERATE is GitHub's word for medium. */
export function ratingFromDatabase(value: unknown): SeverityRating | null {
  if (typeof value !== 'string') return null;
  switch (value.trim().toUpperCase()) {
    case 'LOW':
      return 'low';
    case 'MODERATE':
    case 'MEDIUM':
      return 'medium';
    case 'HIGH':
      return 'high';
    case 'CRITICAL':
      return 'critical';
    default:
      return null;
  }
}

/**
 * A numeric CVSS base score some databases keep without a vector (RubySec `cvss_v4`/`cvss_v3`,
 * the Node.js security WG `cvss_score`), from `database_specific`; null when absent or not 0-10.
 */
export function databaseScore(databaseSpecific: Record<string, unknown> | null): number | null {
  if (!databaseSpecific) return null;
  for (const key of ['cvss_v4', 'cvss_v3', 'cvss_score']) {
    const value = Object.hasOwn(databaseSpecific, key) ? databaseSpecific[key] : undefined;
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 10)
      return value;
  }
  return null;
}

/**
 * The effective severity: the highest-scoring CVSS v4.0 vector, else the highest CVSS v3.x vector,
 * else the database-specific rating (with the database's numeric score when it has one), else a
 * database-specific numeric score rated by the CVSS bands, else none. v4 wins because it is the
 * newer assessment of the same flaw when a record carries both.
 */
export function effectiveSeverity(
  cvss: readonly CvssScore[],
  databaseSeverity: SeverityRating | null,
  databaseNumericScore: number | null = null,
): Severity {
  for (const wanted of ['4.0', '3'] as const) {
    let best: CvssScore | null = null;
    for (const entry of cvss) {
      if (entry.score === null || entry.version === null) continue;
      const matches = wanted === '4.0' ? entry.version === '4.0' : entry.version !== '4.0';
      if (matches && (best === null || entry.score > (best.score ?? -1))) best = entry;
    }
    if (best) {
      return {
        source: wanted === '4.0' ? 'cvss_v4' : 'cvss_v3',
        score: best.score,
        rating: best.rating,
        vector: best.vector,
      };
    }
  }
  if (databaseSeverity) {
    return {
      source: 'database',
      score: databaseNumericScore,
      rating: databaseSeverity,
      vector: null,
    };
  }
  if (databaseNumericScore !== null) {
    return {
      source: 'database',
      score: databaseNumericScore,
      rating: ratingFromScore(databaseNumericScore),
      vector: null,
    };
  }
  return { source: 'none', score: null, rating: null, vector: null };
}

/** Orders ratings: null (none/unknown) < low < medium < high < critical. */
export function ratingRank(rating: SeverityRating | null): number {
  return rating === null ? 0 : ['low', 'medium', 'high', 'critical'].indexOf(rating) + 1;
}

/** Higher of two severities: by rating, then by score. */
export function maxSeverity(a: Severity, b: Severity): Severity {
  const byRating = ratingRank(a.rating) - ratingRank(b.rating);
  if (byRating !== 0) return byRating > 0 ? a : b;
  return (b.score ?? -1) > (a.score ?? -1) ? b : a;
}
