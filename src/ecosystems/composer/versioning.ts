import type { Versioning } from '../types';

/**
 * Composer versions and constraints, following composer/semver's VersionParser and PHP's
 * `version_compare`, which is also how OSV orders `Packagist` ranges.
 *
 * Versions are normalised to four numeric parts plus an optional stability suffix
 * (`v1.2` → `1.2.0.0`, `1.0.0-b2` → `1.0.0.0-beta2`, `1.0.x-dev` → `1.0.9999999.9999999-dev`).
 * Stabilities order as `dev < alpha < beta < RC < stable < patch`.
 *
 * Branch versions (`dev-master`, `dev-feature/x`) have no order: Composer never lets them
 * satisfy a range, only an exact `dev-…` constraint. `compare` still needs a total order, so
 * branches sort below every numeric version and by name among themselves.
 *
 * Stability filtering (`minimum-stability`, `@dev` flags) is a resolver concern, not a
 * constraint one: `satisfies('1.3.0-beta1', '^1.2')` is true, as in `Composer\Semver\Semver`.
 */

// Written without nested unbounded quantifiers over the same characters (PHP uses possessive
// `*+`), so a long run of digits cannot make the regex backtrack exponentially.
const MODIFIER =
  '[._-]?(?:(stable|beta|b|RC|alpha|a|patch|pl|p)([.-]?\\d+(?:[.-]\\d+)*)?)?([.-]?dev)?';
const CLASSICAL = new RegExp(`^v?(\\d{1,5})(\\.\\d+)?(\\.\\d+)?(\\.\\d+)?${MODIFIER}$`, 'i');
const DATE = new RegExp(`^v?(\\d{4}(?:[.:-]?\\d{2}){1,6}(?:[.:-]?\\d{1,3})?)${MODIFIER}$`, 'i');
const BRANCH = /^v?(\d+)(\.(?:\d+|[xX*]))?(\.(?:\d+|[xX*]))?(\.(?:\d+|[xX*]))?$/;
const STABILITY_FLAG = /@(?:stable|RC|beta|alpha|dev)$/i;
const ALIAS = /^([^,\s]+) +as +([^,\s]+)$/;
/** Longer inputs are not versions; the cap also bounds every regex below. */
const MAX_LENGTH = 256;

function expandStability(stability: string): string {
  const lower = stability.toLowerCase();
  if (lower === 'a') return 'alpha';
  if (lower === 'b') return 'beta';
  if (lower === 'p' || lower === 'pl') return 'patch';
  if (lower === 'rc') return 'RC';
  return lower;
}

function normaliseBranch(name: string): string {
  const m = BRANCH.exec(name.trim());
  if (!m) return `dev-${name.trim()}`;
  let version = '';
  for (let i = 1; i < 5; i++) version += m[i] !== undefined ? m[i]!.replace(/[*X]/g, 'x') : '.x';
  return `${version.replace(/x/g, '9999999')}-dev`;
}

/**
 * Composer's `VersionParser::normalize`: the canonical form of one exact version, or null when
 * Composer would reject it.
 */
export function normaliseVersion(input: string): string | null {
  let version = input.trim();
  if (version.length === 0 || version.length > MAX_LENGTH) return null;
  const alias = ALIAS.exec(version);
  if (alias) version = alias[1]!;
  version = version.replace(STABILITY_FLAG, '');
  if (version === 'master' || version === 'trunk' || version === 'default') {
    version = `dev-${version}`;
  }
  if (version.slice(0, 4).toLowerCase() === 'dev-') return `dev-${version.slice(4)}`;
  const plus = version.indexOf('+');
  if (plus > 0 && !/[\s,]/.test(version)) version = version.slice(0, plus);

  let base: string | null = null;
  let match: RegExpExecArray | null = CLASSICAL.exec(version);
  let index = 5;
  if (match) {
    base = match[1]! + (match[2] || '.0') + (match[3] || '.0') + (match[4] || '.0');
  } else {
    match = DATE.exec(version);
    if (match) {
      base = match[1]!.replace(/\D/g, '.');
      index = 2;
    }
  }
  if (match && base !== null) {
    const stability = match[index];
    if (stability) {
      if (stability.toLowerCase() === 'stable') return base;
      const number = match[index + 1] ? match[index + 1]!.replace(/^[.-]+/, '') : '';
      base += `-${expandStability(stability)}${number}`;
    }
    if (match[index + 2]) base += '-dev';
    return base;
  }
  // `1.0.x-dev`, `2-dev`: numeric branches are versions; other `*-dev` names are not.
  const dev = /^(.*?)[.-]?dev$/i.exec(version);
  if (dev) {
    const normalised = normaliseBranch(dev[1]!);
    if (!normalised.startsWith('dev-')) return normalised;
  }
  return null;
}

export function isBranch(normalised: string): boolean {
  return normalised.startsWith('dev-');
}

/** PHP `version_compare` special forms: anything unknown < dev < alpha < beta < RC < # < pl/p. */
function specialOrder(form: string): number {
  const prefixes: ReadonlyArray<readonly [string, number]> = [
    ['dev', 0],
    ['alpha', 1],
    ['a', 1],
    ['beta', 2],
    ['b', 2],
    ['RC', 3],
    ['rc', 3],
    ['#', 4],
    ['pl', 5],
    ['p', 5],
  ];
  for (const [prefix, order] of prefixes) if (form.startsWith(prefix)) return order;
  return -6;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** PHP `php_canonicalize_version`, split on dots (empty parts dropped as `strtok` does). */
function canonicalParts(version: string): string[] {
  let out = version.charAt(0);
  let last = version.charAt(0);
  for (let i = 1; i < version.length; i++) {
    const c = version.charAt(i);
    const prevOut = out.charAt(out.length - 1);
    const lastIsDigit = isDigit(last);
    const cIsDigit = isDigit(c);
    const lastIsNonDigit = !lastIsDigit && last !== '.';
    const cIsNonDigit = !cIsDigit && c !== '.';
    if (c === '-' || c === '_' || c === '+') {
      if (prevOut !== '.') out += '.';
    } else if ((lastIsNonDigit && cIsDigit) || (lastIsDigit && cIsNonDigit)) {
      if (prevOut !== '.') out += '.';
      out += c;
    } else if (!/[A-Za-z0-9]/.test(c)) {
      if (prevOut !== '.') out += '.';
    } else {
      out += c;
    }
    last = c;
  }
  return out.split('.').filter((p) => p.length > 0);
}

function compareNumeric(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** PHP's `version_compare($a, $b)`: -1, 0 or 1. */
export function phpVersionCompare(a: string, b: string): number {
  const pa = canonicalParts(a);
  const pb = canonicalParts(b);
  const shared = Math.min(pa.length, pb.length);
  for (let i = 0; i < shared; i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    let result: number;
    if (isDigit(x[0]) && isDigit(y[0])) result = compareNumeric(x, y);
    else if (!isDigit(x[0]) && !isDigit(y[0]))
      result = Math.sign(specialOrder(x) - specialOrder(y));
    else if (isDigit(x[0])) result = Math.sign(specialOrder('#') - specialOrder(y));
    else result = Math.sign(specialOrder(x) - specialOrder('#'));
    if (result !== 0) return result;
  }
  // A longer version wins when its next part is a number; a trailing word is weighed against
  // a number (`1.0 > 1.0-beta`, `1.0 < 1.0-patch1`).
  if (pa.length > shared) {
    const next = pa[shared]!;
    return isDigit(next[0]) ? 1 : Math.sign(specialOrder(next) - specialOrder('#')) || 1;
  }
  if (pb.length > shared) {
    const next = pb[shared]!;
    return isDigit(next[0]) ? -1 : Math.sign(specialOrder('#') - specialOrder(next)) || -1;
  }
  return 0;
}

export type Operator = '==' | '!=' | '<' | '<=' | '>' | '>=';
export interface Constraint {
  op: Operator;
  /** Normalised version. */
  version: string;
}
/** OR of AND groups; an empty AND group matches everything (`*`). */
export type ConstraintSet = Constraint[][];

function matchesConstraint(version: string, c: Constraint): boolean {
  const aBranch = isBranch(version);
  const bBranch = isBranch(c.version);
  if (c.op === '!=' && (aBranch || bBranch)) return version !== c.version;
  if (aBranch && bBranch) return c.op === '==' && version === c.version;
  // Branches are not ordered against numbered versions: they never match a range.
  if (aBranch || bBranch) return false;
  const cmp = phpVersionCompare(version, c.version);
  switch (c.op) {
    case '==':
      return cmp === 0;
    case '!=':
      return cmp !== 0;
    case '<':
      return cmp < 0;
    case '<=':
      return cmp <= 0;
    case '>':
      return cmp > 0;
    case '>=':
      return cmp >= 0;
  }
}

const VERSION_PART = `v?(\\d+)(?:\\.(\\d+))?(?:\\.(\\d+))?(?:\\.(\\d+))?(?:${MODIFIER}|\\.([xX*][.-]?dev))(?:\\+\\S+)?`;
const TILDE = new RegExp(`^~>?${VERSION_PART}$`, 'i');
const CARET = new RegExp(`^\\^${VERSION_PART}$`, 'i');
const WILDCARD = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.[xX*])+$/;
const HYPHEN = /^(\S+) +- +(\S+)$/;
const OPERATOR = /^(<>|!=|>=?|<=?|==?)?\s*(.*)$/;
const MODIFIER_END = new RegExp(`-${MODIFIER}$`);
/** composer/semver's AND separator: a comma or space that is not part of `>= 1`, `1 - 2`, `as`. */
const AND_SPLIT = /(?<!^|as|[=>< ,]) *(?<!-)[, ](?!-) *(?!,|as|$)/;

type Parts = [string, string, string, string];

/** Pads/increments parts like composer/semver's `manipulateVersionString`. */
function bump(m: ArrayLike<string | undefined>, position: number, increment = 0): string | null {
  const parts: Parts = [m[1] ?? '0', m[2] ?? '0', m[3] ?? '0', m[4] ?? '0'];
  let pos = position;
  for (let i = 4; i > 0; i--) {
    if (i > pos) parts[i - 1] = '0';
    else if (i === pos && increment) {
      const value = Number(parts[i - 1]) + increment;
      if (value < 0) {
        parts[i - 1] = '0';
        pos--;
        if (i === 1) return null;
      } else parts[i - 1] = String(value);
    }
  }
  return parts.join('.');
}

const present = (s: string | undefined): boolean => s !== undefined && s !== '';

/** One AND term of a constraint, or null when Composer would refuse it. */
function parseTerm(input: string): Constraint[] | null {
  let term = input;
  const alias = ALIAS.exec(term);
  if (alias) term = alias[1]!;
  let stabilityModifier: string | null = null;
  const flag = /^(\S*?)@(stable|RC|beta|alpha|dev)$/i.exec(term);
  if (flag) {
    term = flag[1] !== '' ? flag[1]! : '*';
    if (flag[2]!.toLowerCase() !== 'stable') stabilityModifier = flag[2]!;
  }
  const ref = /^(dev-[^,\s@]+?|[^,\s@]+?\.x-dev)#.+$/i.exec(term);
  if (ref) term = ref[1]!;

  const any = /^(v)?[xX*](\.[xX*])*$/i.exec(term);
  if (any) return any[1] || any[2] ? [{ op: '>=', version: '0.0.0.0-dev' }] : [];

  const tilde = TILDE.exec(term);
  if (tilde) {
    if (term.startsWith('~>')) return null;
    let position = present(tilde[4]) ? 4 : present(tilde[3]) ? 3 : present(tilde[2]) ? 2 : 1;
    if (tilde[8]) position++;
    const suffix = !tilde[5] && !tilde[7] && !tilde[8] ? '-dev' : '';
    const low = normaliseVersion(term.slice(1) + suffix);
    const high = bump(tilde, Math.max(1, position - 1), 1);
    if (low === null || high === null) return null;
    return [
      { op: '>=', version: low },
      { op: '<', version: `${high}-dev` },
    ];
  }

  const caret = CARET.exec(term);
  if (caret) {
    const position =
      caret[1] !== '0' || !present(caret[2]) ? 1 : caret[2] !== '0' || !present(caret[3]) ? 2 : 3;
    const suffix = !caret[5] && !caret[7] && !caret[8] ? '-dev' : '';
    const low = normaliseVersion(term.slice(1) + suffix);
    const high = bump(caret, position, 1);
    if (low === null || high === null) return null;
    return [
      { op: '>=', version: low },
      { op: '<', version: `${high}-dev` },
    ];
  }

  const wildcard = WILDCARD.exec(term);
  if (wildcard) {
    const position = present(wildcard[3]) ? 3 : present(wildcard[2]) ? 2 : 1;
    const low = `${bump(wildcard, position)}-dev`;
    const high = `${bump(wildcard, position, 1)}-dev`;
    if (low === '0.0.0.0-dev') return [{ op: '<', version: high }];
    return [
      { op: '>=', version: low },
      { op: '<', version: high },
    ];
  }

  const hyphen = HYPHEN.exec(term);
  if (hyphen) {
    const from = new RegExp(`^${VERSION_PART}$`, 'i').exec(hyphen[1]!);
    const to = new RegExp(`^${VERSION_PART}$`, 'i').exec(hyphen[2]!);
    if (from && to) {
      const low = normaliseVersion(hyphen[1]!);
      const highExact = normaliseVersion(hyphen[2]!);
      if (low === null || highExact === null) return null;
      const lowSuffix = !from[5] && !from[7] && !from[8] ? '-dev' : '';
      const lower: Constraint = { op: '>=', version: low + lowSuffix };
      // A complete `to` (or one with a stability) is inclusive; a partial one covers its prefix.
      if ((present(to[2]) && present(to[3])) || to[5] || to[7] || to[8]) {
        return [lower, { op: '<=', version: highExact }];
      }
      const high = bump(to, present(to[2]) ? 2 : 1, 1);
      if (high === null) return null;
      return [lower, { op: '<', version: `${high}-dev` }];
    }
  }

  const basic = OPERATOR.exec(term);
  if (!basic) return null;
  const text = basic[2]!;
  let version = normaliseVersion(text);
  // `foobar-dev` is accepted as the branch `dev-foobar`.
  if (version === null && text.endsWith('-dev') && /^[0-9a-zA-Z./-]+$/.test(text)) {
    version = normaliseVersion(`dev-${text.slice(0, -4)}`);
  }
  if (version === null) return null;
  const raw = basic[1] ?? '=';
  const op: Operator = raw === '=' ? '==' : raw === '<>' ? '!=' : (raw as Operator);
  if (op !== '==' && stabilityModifier && stabilityOf(version) === 'stable') {
    version += `-${stabilityModifier}`;
  } else if ((op === '<' || op === '>=') && !MODIFIER_END.test(text.toLowerCase())) {
    if (!text.startsWith('dev-')) version += '-dev';
  }
  return [{ op, version }];
}

/** Parses `^1.2 || >=2.0 <2.5, !=2.3` into OR-of-AND constraints, or null when invalid. */
export function parseConstraints(input: string): ConstraintSet | null {
  const text = input.trim();
  if (text.length === 0 || text.length > MAX_LENGTH * 4) return null;
  const groups: ConstraintSet = [];
  for (const orPart of text.split(/\s*\|\|?\s*/)) {
    const group: Constraint[] = [];
    for (const andPart of orPart.split(AND_SPLIT)) {
      const parsed = parseTerm(andPart.trim());
      if (parsed === null) return null;
      group.push(...parsed);
    }
    groups.push(group);
  }
  return groups;
}

export type Stability = 'stable' | 'RC' | 'beta' | 'alpha' | 'dev';

/** Stability of a normalised version. */
export function stabilityOf(normalised: string): Stability {
  if (isBranch(normalised) || normalised.endsWith('-dev')) return 'dev';
  const m = /-(alpha|beta|RC|patch)\d*(?:[.-]\d+)*$/.exec(normalised);
  if (!m || m[1] === 'patch') return 'stable';
  return m[1] as Stability;
}

export function compareComposer(a: string, b: string): number {
  const na = normaliseVersion(a);
  const nb = normaliseVersion(b);
  if (na === null || nb === null) {
    // Not Composer versions: PHP's comparison of the raw text, as OSV does, then text order
    // so that distinct strings never compare equal by accident.
    const raw = phpVersionCompare(a.replace(/^[vV]/, ''), b.replace(/^[vV]/, ''));
    return raw !== 0 ? raw : a < b ? -1 : a > b ? 1 : 0;
  }
  const aBranch = isBranch(na);
  const bBranch = isBranch(nb);
  if (aBranch || bBranch) {
    if (aBranch && bBranch) return na < nb ? -1 : na > nb ? 1 : 0;
    return aBranch ? -1 : 1;
  }
  return phpVersionCompare(na, nb);
}

function exactPin(spec: string): boolean {
  const set = parseConstraints(spec);
  return set !== null && set.length === 1 && set[0]!.length === 1 && set[0]![0]!.op === '==';
}

export const composerVersioning: Versioning = {
  isValid: (version) => normaliseVersion(version) !== null,
  compare: compareComposer,
  isPrerelease: (version) => {
    const normalised = normaliseVersion(version);
    return normalised !== null && stabilityOf(normalised) !== 'stable';
  },
  satisfies: (version, range) => {
    const normalised = normaliseVersion(version);
    const set = parseConstraints(range);
    if (normalised === null || set === null) return false;
    return set.some((group) => group.every((c) => matchesConstraint(normalised, c)));
  },
  isRange: (spec) => parseConstraints(spec) !== null && !exactPin(spec),
};
