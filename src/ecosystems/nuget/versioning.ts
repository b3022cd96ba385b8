import type { Versioning } from '../types';

/**
 * NuGet versions (NuGet.Versioning): SemVer 2.0 extended to four numeric parts
 * (`Major.Minor.Patch.Revision`, missing parts are 0 so 1.0 == 1.0.0 == 1.0.0.0), leading zeros
 * allowed in numbers, release labels compared part by part (numeric parts numerically and below
 * alphanumeric ones, alphanumeric parts case-insensitively), build metadata ignored.
 */
export interface NuGetVersion {
  /** Four numeric parts as digit strings without leading zeros. */
  parts: [string, string, string, string];
  release: string[];
  metadata: string | null;
}

const VERSION =
  /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

function stripZeros(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits[i] === '0') i++;
  return digits.slice(i);
}

export function parseNuGetVersion(text: string): NuGetVersion | null {
  const match = VERSION.exec(text.trim());
  if (!match) return null;
  return {
    parts: [
      stripZeros(match[1]!),
      stripZeros(match[2] ?? '0'),
      stripZeros(match[3] ?? '0'),
      stripZeros(match[4] ?? '0'),
    ],
    release: match[5] ? match[5].split('.') : [],
    metadata: match[6] ?? null,
  };
}

/** Normalised text as NuGet writes it: three parts at least, the fourth only when non-zero. */
export function normaliseNuGetVersion(text: string): string | null {
  const version = parseNuGetVersion(text);
  if (!version) return null;
  const [major, minor, patch, revision] = version.parts;
  let out = `${major}.${minor}.${patch}${revision !== '0' ? `.${revision}` : ''}`;
  if (version.release.length > 0) out += `-${version.release.join('.')}`;
  return out;
}

function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const NUMERIC = /^\d+$/;

function compareLabel(a: string, b: string): number {
  const aNumeric = NUMERIC.test(a);
  const bNumeric = NUMERIC.test(b);
  if (aNumeric && bNumeric) return compareDigits(stripZeros(a), stripZeros(b));
  if (aNumeric) return -1;
  if (bNumeric) return 1;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

export function compareParsedNuGet(a: NuGetVersion, b: NuGetVersion): number {
  for (let i = 0; i < 4; i++) {
    const order = compareDigits(a.parts[i]!, b.parts[i]!);
    if (order !== 0) return order;
  }
  // A release sorts after any of its pre-releases.
  if (a.release.length === 0 || b.release.length === 0) {
    return a.release.length === b.release.length ? 0 : a.release.length === 0 ? 1 : -1;
  }
  const length = Math.max(a.release.length, b.release.length);
  for (let i = 0; i < length; i++) {
    const l = a.release[i];
    const r = b.release[i];
    if (l === undefined) return -1;
    if (r === undefined) return 1;
    const order = compareLabel(l, r);
    if (order !== 0) return order;
  }
  return 0;
}

/** Total order: invalid versions sort before valid ones, and among themselves as strings. */
export function compareNuGetVersions(a: string, b: string): number {
  const x = parseNuGetVersion(a);
  const y = parseNuGetVersion(b);
  if (x && y) return compareParsedNuGet(x, y);
  if (x) return 1;
  if (y) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function isNuGetPrerelease(version: string): boolean {
  const parsed = parseNuGetVersion(version);
  return parsed !== null && parsed.release.length > 0;
}

/**
 * A parsed range. Floating versions (`1.*`, `1.0.0-beta*`, `*-*`) keep the prefix they float on;
 * NuGet would pick the highest match, for satisfaction we accept any version with that prefix.
 */
export interface NuGetRange {
  min: NuGetVersion | null;
  minInclusive: boolean;
  max: NuGetVersion | null;
  maxInclusive: boolean;
  float: { numeric: string[]; release: string | null } | null;
}

/** `1.*`, `1.2.*`, `*`, `1.0.0-*`, `1.0.0-beta*`, `1.*-*`, `*-*` → prefix description. */
function parseFloating(text: string): NuGetRange['float'] | null {
  const match = /^((?:\d+\.){0,3})(\*|\d+)(?:-([0-9A-Za-z.-]*)\*)?$/.exec(text);
  if (!match) return null;
  const numericStar = match[2] === '*';
  const releaseFloat = match[3] !== undefined;
  if (!numericStar && !releaseFloat) return null;
  const numeric = match[1]!.split('.').filter((p) => p.length > 0);
  if (!numericStar) numeric.push(match[2]!);
  return {
    numeric: numeric.map(stripZeros),
    release: releaseFloat ? match[3]!.toLowerCase() : null,
  };
}

export function parseNuGetRange(spec: string): NuGetRange | null {
  const text = spec.trim();
  if (text.length === 0) return null;
  const first = text[0];
  if (first !== '[' && first !== '(') {
    const float = parseFloating(text);
    if (float) return { min: null, minInclusive: true, max: null, maxInclusive: false, float };
    const min = parseNuGetVersion(text);
    return min ? { min, minInclusive: true, max: null, maxInclusive: false, float: null } : null;
  }
  const last = text[text.length - 1];
  if (last !== ']' && last !== ')') return null;
  const body = text.slice(1, -1);
  const parts = body.split(',');
  if (parts.length > 2) return null;
  if (parts.length === 1) {
    // [1.0] is an exact version; (1.0) means nothing.
    const exact = parseNuGetVersion(body);
    if (!exact || first !== '[' || last !== ']') return null;
    return { min: exact, minInclusive: true, max: exact, maxInclusive: true, float: null };
  }
  const [low, high] = parts.map((p) => p.trim()) as [string, string];
  if (low.length === 0 && high.length === 0) return null;
  const float = low.length > 0 ? parseFloating(low) : null;
  const min = low.length === 0 || float ? null : parseNuGetVersion(low);
  const max = high.length === 0 ? null : parseNuGetVersion(high);
  if ((low.length > 0 && !min && !float) || (high.length > 0 && !max)) return null;
  if (min && max) {
    const order = compareParsedNuGet(min, max);
    if (order > 0 || (order === 0 && !(first === '[' && last === ']'))) return null;
  }
  return { min, minInclusive: first === '[', max, maxInclusive: last === ']', float };
}

function matchesFloat(version: NuGetVersion, float: NonNullable<NuGetRange['float']>): boolean {
  for (let i = 0; i < float.numeric.length; i++) {
    if (version.parts[i] !== float.numeric[i]) return false;
  }
  if (float.release === null) return version.release.length === 0;
  if (version.release.length === 0) return true;
  return version.release.join('.').toLowerCase().startsWith(float.release);
}

export function nugetSatisfies(version: string, spec: string): boolean {
  const parsed = parseNuGetVersion(version);
  const range = parseNuGetRange(spec);
  if (!parsed || !range) return false;
  if (range.float && !matchesFloat(parsed, range.float)) return false;
  if (range.min) {
    const order = compareParsedNuGet(parsed, range.min);
    if (order < 0 || (order === 0 && !range.minInclusive)) return false;
  }
  if (range.max) {
    const order = compareParsedNuGet(parsed, range.max);
    if (order > 0 || (order === 0 && !range.maxInclusive)) return false;
  }
  return true;
}

/** A bare version is NuGet's minimum (`>= 1.0`) but names one version: not a range here. */
export function isNuGetRange(spec: string): boolean {
  const text = spec.trim();
  return text.startsWith('[') || text.startsWith('(') || text.includes('*');
}

/** `[1.2.3]` and `[1.2.3, 1.2.3]` pin exactly one version; anything else → null. */
export function exactNuGetVersion(spec: string): string | null {
  const range = parseNuGetRange(spec);
  if (!range || range.float || !range.min || !range.max) return null;
  if (!range.minInclusive || !range.maxInclusive) return null;
  if (compareParsedNuGet(range.min, range.max) !== 0) return null;
  const text = spec.trim();
  return text.slice(1, -1).split(',')[0]!.trim();
}

export const nugetVersioning: Versioning = {
  isValid: (version) => parseNuGetVersion(version) !== null,
  compare: compareNuGetVersions,
  isPrerelease: isNuGetPrerelease,
  satisfies: nugetSatisfies,
  isRange: isNuGetRange,
};
