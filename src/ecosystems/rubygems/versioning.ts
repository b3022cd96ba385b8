import type { Versioning } from '../types';

/**
 * RubyGems versions, ported from Gem::Version and Gem::Requirement (rubygems/version.rb,
 * requirement.rb): the OSV `RubyGems` ECOSYSTEM ordering.
 *
 * - A version is digits, then `.`-separated alphanumeric parts; `-` is read as `.pre.`.
 * - Segments split on dots and on letter/digit boundaries (`1.0.0b1` → 1, 0, 0, "b", 1).
 * - Any letter makes it a pre-release; a string segment sorts before any number (`1.0.a` < `1.0`).
 * - Trailing zeros are ignored, separately before and after the first string segment
 *   (`1.0` == `1`, `1.0.a` == `1.a`).
 */

const VERSION = /^[0-9]+(?:\.[0-9a-zA-Z]+)*(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** A segment: a digit string without leading zeros (compared as a number) or a letter run. */
type Segment = { num: string } | { str: string };

export interface GemVersion {
  /** The normalised text (`-` replaced by `.pre.`). */
  version: string;
  segments: Segment[];
  canonical: Segment[];
  prerelease: boolean;
}

function isZero(s: Segment): boolean {
  return 'num' in s && s.num === '0';
}

function dropTrailingZeros(segments: Segment[]): Segment[] {
  let end = segments.length;
  while (end > 0 && isZero(segments[end - 1] as Segment)) end--;
  return segments.slice(0, end);
}

export function parseGemVersion(text: string): GemVersion | null {
  const trimmed = text.trim();
  if (trimmed.length > 256) return null;
  // Gem::Version.new('') is version 0.
  const raw = trimmed === '' ? '0' : trimmed;
  if (!VERSION.test(raw)) return null;
  const version = raw.replaceAll('-', '.pre.');
  const segments: Segment[] = [];
  for (const m of version.matchAll(/[0-9]+|[a-zA-Z]+/g)) {
    const part = m[0];
    segments.push(/^[0-9]/.test(part) ? { num: part.replace(/^0+(?=.)/, '') } : { str: part });
  }
  const firstString = segments.findIndex((s) => 'str' in s);
  const numeric = firstString < 0 ? segments : segments.slice(0, firstString);
  const rest = firstString < 0 ? [] : segments.slice(firstString);
  const canonical = [...dropTrailingZeros(numeric), ...dropTrailingZeros(rest)];
  return { version, segments, canonical, prerelease: /[a-zA-Z]/.test(version) };
}

function compareSegments(a: Segment, b: Segment): number {
  if ('num' in a && 'num' in b) {
    if (a.num.length !== b.num.length) return a.num.length < b.num.length ? -1 : 1;
    return a.num < b.num ? -1 : a.num > b.num ? 1 : 0;
  }
  if ('str' in a && 'str' in b) return a.str < b.str ? -1 : a.str > b.str ? 1 : 0;
  // A string segment sorts before a number.
  return 'str' in a ? -1 : 1;
}

const ZERO: Segment = { num: '0' };

/** Gem::Version#<=>. */
export function compareGemVersions(a: GemVersion, b: GemVersion): number {
  const n = Math.max(a.canonical.length, b.canonical.length);
  for (let i = 0; i < n; i++) {
    const c = compareSegments(a.canonical[i] ?? ZERO, b.canonical[i] ?? ZERO);
    if (c !== 0) return c;
  }
  return 0;
}

/** Invalid versions sort before valid ones and among themselves by string: a total order. */
export function compare(a: string, b: string): number {
  const pa = parseGemVersion(a);
  const pb = parseGemVersion(b);
  if (pa && pb) return compareGemVersions(pa, pb);
  if (pa) return 1;
  if (pb) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function fromSegments(segments: Segment[]): GemVersion {
  const text = segments.map((s) => ('num' in s ? s.num : s.str)).join('.');
  return parseGemVersion(text) as GemVersion;
}

/** Segments up to the first string one: what `release` and `bump` keep. */
function numericPrefix(v: GemVersion): Segment[] {
  const firstString = v.segments.findIndex((s) => 'str' in s);
  return firstString < 0 ? [...v.segments] : v.segments.slice(0, firstString);
}

/** Gem::Version#release: the version without its pre-release part. */
export function release(v: GemVersion): GemVersion {
  return v.prerelease ? fromSegments(numericPrefix(v)) : v;
}

/** Gem::Version#bump: drop the pre-release and the last part, then increment: 1.2.3 → 1.3. */
export function bump(v: GemVersion): GemVersion {
  const segments = numericPrefix(v);
  if (segments.length > 1) segments.pop();
  const last = segments[segments.length - 1];
  const next = last && 'num' in last ? (BigInt(last.num) + 1n).toString() : '1';
  segments[Math.max(segments.length - 1, 0)] = { num: next };
  return fromSegments(segments);
}

export type GemOperator = '=' | '!=' | '>' | '<' | '>=' | '<=' | '~>';

export interface GemRequirement {
  op: GemOperator;
  version: GemVersion;
  /** The version text as written. */
  text: string;
}

const REQUIREMENT = /^\s*(=|!=|>=|<=|>|<|~>)?\s*(\S+)\s*$/;

/** Parses one requirement (`~> 1.2`, `>= 1.0`, `1.2.3` meaning `= 1.2.3`), or null. */
export function parseGemRequirement(text: string): GemRequirement | null {
  const m = REQUIREMENT.exec(text);
  if (!m) return null;
  const version = parseGemVersion(m[2] ?? '');
  if (!version) return null;
  return { op: (m[1] ?? '=') as GemOperator, version, text: (m[2] ?? '').trim() };
}

/** Parses a comma-separated requirement list (`~> 1.2, >= 1.2.3`), or null when any part is bad. */
export function parseGemRequirements(text: string): GemRequirement[] | null {
  const parts = text.split(',');
  const result: GemRequirement[] = [];
  for (const part of parts) {
    const requirement = parseGemRequirement(part);
    if (!requirement) return null;
    result.push(requirement);
  }
  return result;
}

function satisfiesOne(v: GemVersion, r: GemRequirement): boolean {
  const c = compareGemVersions(v, r.version);
  switch (r.op) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '>':
      return c > 0;
    case '<':
      return c < 0;
    case '>=':
      return c >= 0;
    case '<=':
      return c <= 0;
    case '~>':
      // Gem::Requirement: v >= r && v.release < r.bump.
      return c >= 0 && compareGemVersions(release(v), bump(r.version)) < 0;
  }
}

/**
 * Gem::Requirement#satisfied_by?: every comma-separated requirement holds. Like RubyGems itself,
 * pre-releases are not excluded here (Bundler filters them at resolution, not in the requirement).
 */
export function satisfies(version: string, range: string): boolean {
  const v = parseGemVersion(version);
  const requirements = parseGemRequirements(range);
  if (!v || !requirements) return false;
  return requirements.every((r) => satisfiesOne(v, r));
}

/** Only a single `= x` (or a bare `x`, which means `= x`) names one version. */
export function isRange(spec: string): boolean {
  const requirements = parseGemRequirements(spec);
  if (!requirements) return false;
  return !(requirements.length === 1 && requirements[0]?.op === '=');
}

export const rubygemsVersioning: Versioning = {
  // '' is version 0 for Gem::Version, but an empty string is no version for our callers.
  isValid: (version) => version.trim() !== '' && parseGemVersion(version) !== null,
  compare,
  isPrerelease: (version) => parseGemVersion(version)?.prerelease ?? false,
  satisfies,
  isRange,
};
