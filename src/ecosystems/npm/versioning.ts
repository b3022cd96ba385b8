import { parse, type SemVer, satisfies as semverSatisfies, validRange } from 'semver';
import { memoByString } from '../../core/memo';
import type { Versioning } from '../types';

/**
 * npm versions are SemVer 2.0.0 as implemented by the `semver` package that npm itself uses.
 * OSV's `ECOSYSTEM` ordering for npm is SemVer 2 precedence: build metadata is ignored and a
 * pre-release sorts before its release.
 */

/** Strict parse (npm accepts a leading `v`, as `semver.valid` does); null when not a version. */
export function parseNpmVersion(version: string): SemVer | null {
  try {
    return parse(version.trim());
  } catch {
    return null;
  }
}

/**
 * Parses shared by the read-only operations below: drift and matching compare the same few
 * version strings over and over, and parsing dominated them. The cached objects never leave this
 * module, so nobody can change one (SemVer's `inc` mutates).
 */
const parsedVersion = memoByString(parseNpmVersion);

function isValid(version: string): boolean {
  return parsedVersion(version) !== null;
}

/**
 * SemVer 2 precedence. Invalid versions sort after every valid one and among themselves by plain
 * string order, so a mixed list still sorts deterministically and nothing throws.
 */
function compare(a: string, b: string): number {
  const pa = parsedVersion(a);
  const pb = parsedVersion(b);
  if (pa && pb) return pa.compare(pb);
  if (pa) return -1;
  if (pb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function isPrerelease(version: string): boolean {
  const parsed = parsedVersion(version);
  return parsed !== null && parsed.prerelease.length > 0;
}

/**
 * npm's own semantics: a pre-release only satisfies a range whose comparators name a pre-release
 * of the same major.minor.patch (`includePrerelease: false`). Invalid input is simply false.
 */
function satisfies(version: string, range: string): boolean {
  const parsed = parsedVersion(version);
  if (!parsed) return false;
  try {
    return semverSatisfies(parsed, range.trim(), { includePrerelease: false });
  } catch {
    return false;
  }
}

/** True for any valid range that is not one exact version (`^1.2.3`, `1.x`, `*`, `>=1 <2`). */
function isRange(spec: string): boolean {
  const text = spec.trim();
  if (parsedVersion(text)) return false;
  // `=1.2.3` is one exact version written as a comparator.
  if (/^=\s*v?\d/.test(text) && parseNpmVersion(text.replace(/^=\s*/, ''))) return false;
  try {
    return validRange(text) !== null;
  } catch {
    return false;
  }
}

export const npmVersioning: Versioning = { isValid, compare, isPrerelease, satisfies, isRange };
