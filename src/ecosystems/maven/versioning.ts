import type { Versioning } from '../types';

/**
 * Maven version ordering: a port of Maven 3.8's `ComparableVersion` (the ordering the Maven
 * "Version Order Specification" documents and OSV uses for `ECOSYSTEM` ranges), including the
 * MNG-5568, MNG-6572 and MNG-6964 fixes and the `release` alias. The Maven 3.9 "combination item"
 * change (MNG-7644, `1.0.0.RC1 < 1.0.0-RC2`) is deliberately not followed: OSV's own comparator
 * predates it and matching must agree with OSV.
 *
 * Items: numbers, qualifier strings and sub-lists (started by `-` or by a digit/letter transition).
 */
type Item =
  | { kind: 'num'; digits: string }
  | { kind: 'str'; value: string }
  | { kind: 'list'; items: Item[] };

/** Known qualifiers in order; anything else sorts after them, lexically. */
const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const RELEASE_INDEX = QUALIFIERS.indexOf('');
const ALIASES: Record<string, string> = { ga: '', final: '', release: '', cr: 'rc' };
const PRERELEASE = new Set(['alpha', 'beta', 'milestone', 'rc', 'snapshot']);

function numItem(text: string): Item {
  let i = 0;
  while (i < text.length - 1 && text[i] === '0') i++;
  return { kind: 'num', digits: text.slice(i) };
}

function strItem(text: string, followedByDigit: boolean): Item {
  let value = text;
  if (followedByDigit && value.length === 1) {
    // a1 = alpha-1, b1 = beta-1, m1 = milestone-1
    if (value === 'a') value = 'alpha';
    else if (value === 'b') value = 'beta';
    else if (value === 'm') value = 'milestone';
  }
  return { kind: 'str', value: ALIASES[value] ?? value };
}

function parseItem(isDigit: boolean, text: string): Item {
  return isDigit ? numItem(text) : strItem(text, false);
}

function isNullItem(item: Item): boolean {
  if (item.kind === 'num') return item.digits === '0';
  if (item.kind === 'str') return item.value === '';
  return item.items.length === 0;
}

/** Removes trailing null items (0, "", empty lists) the way `ListItem.normalize` does. */
function normalize(list: Item[]): void {
  for (let i = list.length - 1; i >= 0; i--) {
    const last = list[i]!;
    if (isNullItem(last)) list.splice(i, 1);
    else if (last.kind !== 'list') break;
  }
}

function isDigitChar(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Parses any string into Maven's item tree; never fails (Maven accepts every string). */
export function parseMavenVersion(version: string): Item {
  const text = version.toLowerCase();
  const root: Item[] = [];
  let list = root;
  const stack: Item[][] = [root];
  let isDigit = false;
  let start = 0;
  const pushList = () => {
    const next: Item[] = [];
    list.push({ kind: 'list', items: next });
    list = next;
    stack.push(next);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */ || c === 45 /* - */) {
      list.push(
        i === start ? { kind: 'num', digits: '0' } : parseItem(isDigit, text.slice(start, i)),
      );
      start = i + 1;
      if (c === 45) pushList();
    } else if (isDigitChar(c)) {
      if (!isDigit && i > start) {
        list.push(strItem(text.slice(start, i), true));
        start = i;
        pushList();
      }
      isDigit = true;
    } else {
      if (isDigit && i > start) {
        list.push(parseItem(true, text.slice(start, i)));
        start = i;
        pushList();
      }
      isDigit = false;
    }
  }
  if (text.length > start) list.push(parseItem(isDigit, text.slice(start)));
  for (let i = stack.length - 1; i >= 0; i--) normalize(stack[i]!);
  return { kind: 'list', items: root };
}

function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Maven's `comparableQualifier`: known qualifiers by index, unknown ones as "7-<text>". */
function comparableQualifier(value: string): string {
  const i = QUALIFIERS.indexOf(value);
  return i === -1 ? `${QUALIFIERS.length}-${value}` : String(i);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareItem(a: Item, b: Item | null): number {
  if (a.kind === 'num') {
    if (b === null) return a.digits === '0' ? 0 : 1;
    if (b.kind === 'num') return compareDigits(a.digits, b.digits);
    return 1; // 1.1 > 1-sp, 1.1 > 1-1
  }
  if (a.kind === 'str') {
    if (b === null) {
      // 1-rc < 1, 1-ga > 1
      return compareStrings(comparableQualifier(a.value), String(RELEASE_INDEX));
    }
    if (b.kind === 'str') {
      return compareStrings(comparableQualifier(a.value), comparableQualifier(b.value));
    }
    return -1; // 1.any < 1.1, 1.any < 1-1
  }
  if (b === null) {
    // MNG-6964: compare the whole list with null, not only its first item.
    for (const item of a.items) {
      const result = compareItem(item, null);
      if (result !== 0) return result;
    }
    return 0;
  }
  if (b.kind === 'num') return -1; // 1-1 < 1.0.x
  if (b.kind === 'str') return 1; // 1-1 > 1-sp
  const length = Math.max(a.items.length, b.items.length);
  for (let i = 0; i < length; i++) {
    const l = a.items[i] ?? null;
    const r = b.items[i] ?? null;
    const result = l === null ? (r === null ? 0 : -compareItem(r, l)) : compareItem(l, r);
    if (result !== 0) return result;
  }
  return 0;
}

/** Canonical text of a version (`1.0.0` → `1`, `1-ga` → `1`), handy for equality and tests. */
export function canonicalMavenVersion(version: string): string {
  const render = (items: Item[]): string => {
    let out = '';
    for (const item of items) {
      if (out.length > 0) out += item.kind === 'list' ? '-' : '.';
      out +=
        item.kind === 'num' ? item.digits : item.kind === 'str' ? item.value : render(item.items);
    }
    return out;
  };
  const root = parseMavenVersion(version);
  return root.kind === 'list' ? render(root.items) : '';
}

export function compareMavenVersions(a: string, b: string): number {
  const result = compareItem(parseMavenVersion(a), parseMavenVersion(b));
  return result < 0 ? -1 : result > 0 ? 1 : 0;
}

const VALID = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

/** Maven accepts any string; we call valid what a release could plausibly be named. */
export function isValidMavenVersion(version: string): boolean {
  if (!VALID.test(version)) return false;
  const lower = version.toLowerCase();
  // Meta versions resolved by the repository, never a concrete artifact version.
  return lower !== 'latest' && lower !== 'release' && !lower.startsWith('latest.');
}

function containsPrerelease(item: Item): boolean {
  if (item.kind === 'str') return PRERELEASE.has(item.value);
  if (item.kind === 'list') return item.items.some(containsPrerelease);
  return false;
}

export function isMavenPrerelease(version: string): boolean {
  return containsPrerelease(parseMavenVersion(version));
}

interface Restriction {
  lower: string | null;
  lowerInclusive: boolean;
  upper: string | null;
  upperInclusive: boolean;
}

/**
 * Parses Maven range syntax: `[1.0,2.0)`, `(,1.0]`, `[1.5]`, `(,1.0],[1.2,)`. Gradle's
 * exclusive-bracket spelling `]1.0,2.0[` is accepted for a single set. Null when not a range.
 */
export function parseMavenRange(spec: string): Restriction[] | null {
  const text = spec.trim();
  if (text.length === 0) return null;
  const restrictions: Restriction[] = [];
  let pos = 0;
  while (pos < text.length) {
    const open = text[pos];
    if (open !== '[' && open !== '(' && open !== ']') return null;
    let close = pos + 1;
    while (close < text.length && !']['.includes(text[close]!) && text[close] !== ')') close++;
    if (close >= text.length) return null;
    const closeChar = text[close]!;
    const body = text.slice(pos + 1, close);
    const restriction = parseRestriction(body, open === '[', closeChar === ']');
    if (!restriction) return null;
    restrictions.push(restriction);
    pos = close + 1;
    while (pos < text.length && text[pos] === ' ') pos++;
    if (pos < text.length) {
      if (text[pos] !== ',') return null;
      pos++;
      while (pos < text.length && text[pos] === ' ') pos++;
      if (pos >= text.length) return null;
    }
  }
  return restrictions.length > 0 ? restrictions : null;
}

function parseRestriction(
  body: string,
  lowerInclusive: boolean,
  upperInclusive: boolean,
): Restriction | null {
  const comma = body.indexOf(',');
  if (comma === -1) {
    const version = body.trim();
    // `[1.5]` is an exact version; `(1.5)` or `[1.5)` are meaningless.
    if (!lowerInclusive || !upperInclusive || version.length === 0) return null;
    return { lower: version, lowerInclusive: true, upper: version, upperInclusive: true };
  }
  if (body.indexOf(',', comma + 1) !== -1) return null;
  const lower = body.slice(0, comma).trim() || null;
  const upper = body.slice(comma + 1).trim() || null;
  if (lower === null && upper === null) return null;
  if (lower !== null && upper !== null) {
    const order = compareMavenVersions(lower, upper);
    if (order > 0 || (order === 0 && !(lowerInclusive && upperInclusive))) return null;
  }
  return { lower, lowerInclusive, upper, upperInclusive };
}

function restrictionContains(r: Restriction, version: string): boolean {
  if (r.lower !== null) {
    const order = compareMavenVersions(version, r.lower);
    if (order < 0 || (order === 0 && !r.lowerInclusive)) return false;
  }
  if (r.upper !== null) {
    const order = compareMavenVersions(version, r.upper);
    if (order > 0 || (order === 0 && !r.upperInclusive)) return false;
  }
  return true;
}

/** Gradle dynamic versions (`1.+`, `+`, `latest.release`) that Maven artifacts often carry. */
function gradleDynamicMatches(version: string, spec: string): boolean | null {
  if (spec === '+' || spec === 'latest.release' || spec === 'latest.integration') {
    return spec !== 'latest.release' || !isMavenPrerelease(version);
  }
  if (spec.endsWith('+')) {
    // Gradle's prefix match is textual: `1.+` matches 1.0 and 1.10 but not 10.0.
    return version.startsWith(spec.slice(0, -1));
  }
  return null;
}

export function isMavenRange(spec: string): boolean {
  const text = spec.trim();
  if (text.length === 0) return false;
  const first = text[0];
  if (first === '[' || first === '(' || first === ']') return true;
  return text.endsWith('+') || text.startsWith('latest.');
}

/**
 * Range satisfaction. A bare version is Maven's "soft requirement": it is not a range, and we
 * treat it as equality (the version Maven resolves unless mediation picks another one).
 */
export function mavenSatisfies(version: string, spec: string): boolean {
  const text = spec.trim();
  const dynamic = gradleDynamicMatches(version, text);
  if (dynamic !== null) return dynamic;
  if (!isMavenRange(text)) return text.length > 0 && compareMavenVersions(version, text) === 0;
  const restrictions = parseMavenRange(text);
  if (!restrictions) return false;
  return restrictions.some((r) => restrictionContains(r, version));
}

export const mavenVersioning: Versioning = {
  isValid: isValidMavenVersion,
  compare: compareMavenVersions,
  isPrerelease: isMavenPrerelease,
  satisfies: mavenSatisfies,
  isRange: isMavenRange,
};
