import type { Versioning } from '../types';

/**
 * Go module versions (golang.org/x/mod/semver). go.mod writes them with a leading `v`; OSV records
 * them without it, so both spellings are accepted and compare equal. Pseudo-versions
 * (`v0.0.0-20240927000941-0f3dac36c52b`, `v1.2.4-0.2024…-hash`, `v1.2.3-pre.0.2024…-hash`) are
 * ordinary semver pre-releases and order exactly as Go orders them. `+incompatible` (and any build
 * metadata) is ignored by the ordering, as in Go.
 */
export interface GoVersion {
  major: string;
  minor: string;
  patch: string;
  /** Pre-release identifiers; empty for a release. */
  prerelease: string[];
  /** Build metadata without the `+` (`incompatible`), or null. */
  build: string | null;
}

const NUMERIC = /^(0|[1-9][0-9]*)$/;
const IDENTIFIER = /^[0-9A-Za-z-]+$/;

/**
 * Parses a Go semver with or without the leading `v`. Like Go, the shorthands `v1` and `v1.2` mean
 * `v1.0.0` and `v1.2.0` but may not carry a pre-release or build suffix.
 */
export function parseGoVersion(text: string): GoVersion | null {
  const raw = text.startsWith('v') ? text.slice(1) : text;
  if (raw.length === 0 || raw.length > 256) return null;
  const plus = raw.indexOf('+');
  const build = plus >= 0 ? raw.slice(plus + 1) : null;
  const withoutBuild = plus >= 0 ? raw.slice(0, plus) : raw;
  const dash = withoutBuild.indexOf('-');
  const core = dash >= 0 ? withoutBuild.slice(0, dash) : withoutBuild;
  const pre = dash >= 0 ? withoutBuild.slice(dash + 1) : null;
  const parts = core.split('.');
  if (parts.length > 3 || parts.some((p) => !NUMERIC.test(p))) return null;
  if (parts.length < 3 && (pre !== null || build !== null)) return null;
  if (build?.split('.').some((id) => !IDENTIFIER.test(id))) return null;
  const prerelease = pre === null ? [] : pre.split('.');
  for (const id of prerelease) {
    if (!IDENTIFIER.test(id)) return null;
    // Numeric identifiers may not have leading zeros (SemVer 2 §9).
    if (/^[0-9]+$/.test(id) && !NUMERIC.test(id)) return null;
  }
  return {
    major: parts[0] ?? '0',
    minor: parts[1] ?? '0',
    patch: parts[2] ?? '0',
    prerelease,
    build,
  };
}

/** Compares digit strings of any length without Number overflow. */
function compareNumeric(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareIdentifiers(a: string, b: string): number {
  const an = /^[0-9]+$/.test(a);
  const bn = /^[0-9]+$/.test(b);
  if (an && bn) return compareNumeric(a, b);
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareGoVersions(a: GoVersion, b: GoVersion): number {
  const core =
    compareNumeric(a.major, b.major) ||
    compareNumeric(a.minor, b.minor) ||
    compareNumeric(a.patch, b.patch);
  if (core !== 0) return core;
  // A release sorts after any of its pre-releases.
  if (a.prerelease.length === 0) return b.prerelease.length === 0 ? 0 : 1;
  if (b.prerelease.length === 0) return -1;
  const n = Math.min(a.prerelease.length, b.prerelease.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdentifiers(a.prerelease[i] ?? '', b.prerelease[i] ?? '');
    if (c !== 0) return c;
  }
  return Math.sign(a.prerelease.length - b.prerelease.length);
}

/**
 * Go's ordering; invalid versions sort before every valid one (as in x/mod/semver) and among
 * themselves by plain string order, which keeps the order total.
 */
export function compare(a: string, b: string): number {
  const pa = parseGoVersion(a);
  const pb = parseGoVersion(b);
  if (pa && pb) return compareGoVersions(pa, pb);
  if (pa) return 1;
  if (pb) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const PSEUDO =
  /^v?[0-9]+\.(0\.0-|[0-9]+\.[0-9]+-([^+]*\.)?0\.)[0-9]{14}-[A-Za-z0-9]+(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/** True for the three pseudo-version forms of cmd/go (regexp from x/mod/module). */
export function isPseudoVersion(version: string): boolean {
  return version.length <= 256 && PSEUDO.test(version) && parseGoVersion(version) !== null;
}

const COMPARATOR = /^(>=|<=|!=|==|=|>|<)?\s*(\S+)$/;

function satisfiesComparator(version: GoVersion, op: string, target: string): boolean | null {
  const t = parseGoVersion(target);
  if (!t) return null;
  const c = compareGoVersions(version, t);
  switch (op) {
    case '>=':
      return c >= 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '<':
      return c < 0;
    case '!=':
      return c !== 0;
    default:
      return c === 0;
  }
}

/**
 * Go has no range syntax of its own. Accepted here: comparator sets joined by commas (AND) such as
 * `>=1.2.0, <1.3.0` or `>= v1.2.0, < v1.3.0`, alternatives joined by `||`, a bare version (exact
 * match) and `*` (any valid version). Pre-releases (pseudo-versions included) match when the
 * comparators say so — Go has no npm-style pre-release exclusion. Anything else does not match.
 */
export function satisfies(version: string, range: string): boolean {
  const v = parseGoVersion(version.trim());
  if (!v) return false;
  for (const alternative of range.split('||')) {
    const comparators = alternative
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c.length > 0);
    if (comparators.length === 0) continue;
    let all = true;
    for (const comparator of comparators) {
      if (comparator === '*') continue;
      const m = COMPARATOR.exec(comparator);
      const ok = m ? satisfiesComparator(v, m[1] ?? '=', m[2] ?? '') : null;
      if (ok !== true) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

export function isRange(spec: string): boolean {
  const s = spec.trim();
  if (s.length === 0 || parseGoVersion(s)) return false;
  return /[<>=!,*]|\|\|/.test(s);
}

export const goVersioning: Versioning = {
  isValid: (version) => parseGoVersion(version.trim()) !== null,
  compare,
  // Pseudo-versions are pre-releases too: they name a commit, not a tagged release.
  isPrerelease: (version) => (parseGoVersion(version.trim())?.prerelease.length ?? 0) > 0,
  satisfies,
  isRange,
};
