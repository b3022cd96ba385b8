import {
  explain,
  compare as pep440Compare,
  satisfies as pep440Satisfies,
} from '@renovatebot/pep440';
import type { Versioning } from '../types';

/**
 * PEP 440 versions. The ordering is the one OSV uses for PyPI `ECOSYSTEM` ranges, which is
 * `packaging`'s: epochs, release, pre/post/dev and local segments. Strings that are not PEP 440
 * versions sort before every valid version (as `packaging`'s LegacyVersion did, epoch -1) and
 * among themselves by plain string order, so sorting a mixed list never throws.
 */

function parseVersion(version: string) {
  try {
    return explain(version.trim());
  } catch {
    return null;
  }
}

export function isValid(version: string): boolean {
  return parseVersion(version) !== null;
}

function stringOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compare(a: string, b: string): number {
  const validA = isValid(a);
  const validB = isValid(b);
  if (validA && validB) {
    try {
      return Math.sign(pep440Compare(a.trim(), b.trim()));
    } catch {
      return stringOrder(a, b);
    }
  }
  if (validA) return 1;
  if (validB) return -1;
  return stringOrder(a, b);
}

/** a, b, rc and dev releases are pre-releases; a post release alone is not. */
export function isPrerelease(version: string): boolean {
  return parseVersion(version)?.is_prerelease ?? false;
}

const OPERATOR_SPACE = /(===|==|!=|~=|<=|>=|<|>|\^|~)\s+/g;

/** Splits a specifier into clauses; Poetry also accepts spaces between AND-ed clauses. */
function clauses(range: string): string[] {
  return range
    .replace(OPERATOR_SPACE, '$1')
    .split(/[\s,]+/)
    .filter((c) => c.length > 0);
}

function bumpAt(release: readonly number[], index: number): string {
  const upper = release.slice(0, index + 1);
  upper[index] = (upper[index] ?? 0) + 1;
  return upper.join('.');
}

/**
 * Translates one Poetry clause (`^1.2`, `~1.2`, bare `1.2.3`, bare `1.2.*`) to PEP 440 so that
 * the ranges kept verbatim from pyproject.toml can be checked too; PEP 440 clauses pass through.
 */
function toPep440Clause(clause: string): string | null {
  if (clause === '*') return '';
  const head = clause[0];
  if (head === '^' || (head === '~' && clause[1] !== '=')) {
    const base = clause.slice(1);
    const parsed = parseVersion(base);
    if (!parsed) return null;
    const release = parsed.release;
    let index: number;
    if (head === '^') {
      index = release.findIndex((part) => part !== 0);
      if (index === -1) index = release.length - 1;
    } else {
      index = release.length >= 2 ? 1 : 0;
    }
    return `>=${base},<${bumpAt(release, index)}`;
  }
  if (/^[0-9vV]/.test(clause)) return `==${clause}`;
  return clause;
}

/**
 * Does `version` fall inside `range`? Accepts PEP 440 specifier sets (`>=1.0,<2,!=1.5.*`, `~=`,
 * `===`), Poetry constraints (`^1.2`, `~1.2`, `>=1 <2`, `||` unions) and `*`. Pre-releases are
 * judged by position like any other version (packaging would exclude them by default, but here
 * the question is containment, e.g. whether a locked 2.0b1 sits in an advisory's range).
 */
export function satisfies(version: string, range: string): boolean {
  const v = version.trim();
  const alternatives = range.split('||');
  for (const alternative of alternatives) {
    const trimmed = alternative.trim();
    if (trimmed.startsWith('===')) {
      // Arbitrary equality compares strings, so it also works for non-PEP 440 versions.
      if (trimmed.slice(3).trim() === v) return true;
      continue;
    }
    if (!isValid(v)) continue;
    const translated: string[] = [];
    let ok = true;
    for (const clause of clauses(trimmed)) {
      const pep = toPep440Clause(clause);
      if (pep === null) {
        ok = false;
        break;
      }
      if (pep !== '') translated.push(pep);
    }
    if (!ok) continue;
    const exclusive = translated.filter((c) => EXCLUSIVE.test(c));
    const inclusive = translated.filter((c) => !EXCLUSIVE.test(c));
    if (!exclusive.every((c) => exclusiveHolds(v, c))) continue;
    if (inclusive.length === 0) return true;
    try {
      if (pep440Satisfies(v, inclusive.join(','), { prereleases: true })) return true;
    } catch {
      // A malformed clause the library rejects by throwing means "not satisfied".
    }
  }
  return false;
}

const EXCLUSIVE = /^[<>](?!=)/;

/**
 * `<V` and `>V` per PEP 440 (packaging's _compare_less_than / _compare_greater_than). The library
 * simplifies these to "false whenever the release numbers are equal", which wrongly rejects
 * `2.0b1 < 2.0b2` and `1.0.post2 > 1.0.post1`.
 */
function exclusiveHolds(version: string, clause: string): boolean {
  const spec = clause.slice(1);
  const v = parseVersion(version);
  const s = parseVersion(spec);
  if (!v || !s) return false;
  const sameBase = () => pep440Compare(v.base_version, s.base_version) === 0;
  if (clause[0] === '<') {
    if (compare(version, spec) >= 0) return false;
    return !(!s.is_prerelease && v.is_prerelease && sameBase());
  }
  if (compare(version, spec) <= 0) return false;
  if (!s.is_postrelease && v.is_postrelease && sameBase()) return false;
  return !(v.local !== null && sameBase());
}

/** True unless the text names exactly one version (`1.2.3`, `==1.2.3`, `===1.2.3`). */
export function isRange(spec: string): boolean {
  const trimmed = spec.trim();
  if (trimmed === '' || trimmed === '*') return true;
  if (isValid(trimmed)) return false;
  const exact = /^===?\s*([^\s,|]+)$/.exec(trimmed);
  if (exact) return exact[1]!.includes('*');
  // Anything else carrying an operator, a wildcard or a list of clauses spans several versions.
  return /[\^~<>=!*,|]/.test(trimmed);
}

export const pypiVersioning: Versioning = {
  isValid,
  compare,
  isPrerelease,
  satisfies,
  isRange,
};
