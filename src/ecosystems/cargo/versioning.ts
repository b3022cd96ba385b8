import semver from 'semver';
import type { Versioning } from '../types';

/**
 * Cargo versions are strict SemVer 2 (no leading `v`), ordered the SemVer way: OSV's `crates.io`
 * ECOSYSTEM ordering. Requirements follow the Rust `semver` crate: a bare `1.2` means `^1.2`,
 * comparators are joined by commas (AND), `*` / `1.*` / `1.2.*` are wildcards. They are translated
 * comparator by comparator to npm's `semver` ranges, which share the caret, tilde and partial-version
 * semantics (including `^0.x` and `^0.0.x`) and the pre-release rule: a pre-release only matches
 * when a comparator names the same major.minor.patch with a pre-release.
 */

const PARTIAL =
  /^(0|[1-9][0-9]*|[*xX])(?:\.(0|[1-9][0-9]*|[*xX]))?(?:\.(0|[1-9][0-9]*|[*xX]))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const COMPARATOR = /^(=|>=|<=|>|<|~|\^)?\s*(\S+)$/;

export function parseCargoVersion(version: string): semver.SemVer | null {
  // npm's strict parser still allows a leading `v` or `=`; Cargo does not.
  if (!/^[0-9]/.test(version) || version.length > 256) return null;
  try {
    return semver.parse(version, { loose: false });
  } catch {
    return null;
  }
}

/** Translates one Cargo comparator to npm range syntax, or null when it is not valid Cargo. */
function translateComparator(text: string): string | null {
  const m = COMPARATOR.exec(text);
  if (!m) return null;
  const op = m[1] ?? '';
  const version = m[2] ?? '';
  const parts = PARTIAL.exec(version);
  if (!parts) return null;
  const [, major, minor, patch, pre] = parts;
  const segments = [major, minor, patch].filter((s) => s !== undefined) as string[];
  const wildcard = segments.findIndex((s) => /^[*xX]$/.test(s));
  if (wildcard >= 0) {
    // Everything after a wildcard must be a wildcard too, and wildcards take no pre-release.
    if (segments.slice(wildcard).some((s) => !/^[*xX]$/.test(s)) || pre) return null;
    // The semver crate only allows a wildcard bare or after `=`.
    if (op !== '' && op !== '=') return null;
    return wildcard === 0 ? '*' : `${segments.slice(0, wildcard).join('.')}.x`;
  }
  // Pre-releases need a full major.minor.patch.
  if (pre && segments.length < 3) return null;
  const core = `${segments.join('.')}${pre ?? ''}`;
  // A bare requirement is a caret requirement (Cargo's default).
  return `${op === '' ? '^' : op}${core}`;
}

/** Translates a whole Cargo requirement (`>=1.2, <1.5`) to an npm range, or null when invalid. */
export function toNpmRange(requirement: string): string | null {
  const comparators = requirement.split(',').map((c) => c.trim());
  if (comparators.some((c) => c.length === 0)) return null;
  const translated: string[] = [];
  for (const comparator of comparators) {
    const npm = translateComparator(comparator);
    if (npm === null) return null;
    translated.push(npm);
  }
  return translated.join(' ');
}

export function compare(a: string, b: string): number {
  const pa = parseCargoVersion(a);
  const pb = parseCargoVersion(b);
  if (pa && pb) return pa.compare(pb);
  // Invalid versions sort before valid ones and among themselves by string: a total order.
  if (pa) return 1;
  if (pb) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function satisfies(version: string, requirement: string): boolean {
  const parsed = parseCargoVersion(version.trim());
  const range = toNpmRange(requirement.trim());
  if (!parsed || range === null) return false;
  try {
    return semver.satisfies(parsed, range);
  } catch {
    return false;
  }
}

/**
 * In Cargo's requirement syntax only `=1.2.3` names one version; a bare `1.2.3` is `^1.2.3`, so it
 * is a range. (A lockfile version is never passed here: it is a version, not a requirement.)
 */
export function isRange(spec: string): boolean {
  const s = spec.trim();
  if (toNpmRange(s) === null) return false;
  return !(s.startsWith('=') && parseCargoVersion(s.slice(1).trim()) !== null);
}

export const cargoVersioning: Versioning = {
  isValid: (version) => parseCargoVersion(version.trim()) !== null,
  compare,
  isPrerelease: (version) => (parseCargoVersion(version.trim())?.prerelease.length ?? 0) > 0,
  satisfies,
  isRange,
};
