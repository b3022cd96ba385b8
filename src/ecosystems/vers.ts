import type { Versioning } from './types';

/**
 * Version ranges in the purl-spec `vers` notation (`vers:npm/>=1.0.0|<2.0.0`,
 * `vers:pypi/1.2.3|1.2.4`, `vers:gem/*`), the notation CycloneDX 1.6 uses for
 * `affects[].versions[].range`. Versions are compared with the rule's ecosystem ordering.
 */
export type Comparator = '=' | '!=' | '<' | '<=' | '>' | '>=';

export interface Constraint {
  comparator: Comparator;
  version: string;
}

export interface Vers {
  scheme: string;
  /** Null for `*` (every version). */
  constraints: Constraint[] | null;
}

export type VersParse = { ok: true; value: Vers } | { ok: false; message: string };

const COMPARATORS: readonly Comparator[] = ['>=', '<=', '!=', '<', '>', '='];

/** Parses `vers:<scheme>/<constraints>`; never throws. */
export function parseVers(text: string): VersParse {
  const match = /^vers:([a-z0-9.+-]+)\/(.+)$/i.exec(text.trim());
  if (!match) return { ok: false, message: 'must be a vers range such as vers:npm/>=1.0.0|<2.0.0' };
  const scheme = (match[1] as string).toLowerCase();
  const body = (match[2] as string).replace(/\s+/g, '');
  if (body === '*') return { ok: true, value: { scheme, constraints: null } };
  const constraints: Constraint[] = [];
  for (const part of body.split('|')) {
    if (part === '') return { ok: false, message: 'has an empty constraint' };
    const comparator = COMPARATORS.find((c) => part.startsWith(c)) ?? '=';
    const version = decodeURIComponent(
      part.slice(comparator === '=' && !part.startsWith('=') ? 0 : comparator.length),
    );
    if (version === '' || version === '*') {
      return { ok: false, message: `has a constraint without a version: ${part}` };
    }
    constraints.push({ comparator, version });
  }
  return { ok: true, value: { scheme, constraints } };
}

/**
 * Whether `version` is in the range, by the vers algorithm: an equal `=` constraint contains
 * it and an equal `!=` excludes it; otherwise the remaining constraints, sorted, form intervals
 * (an opening `<`/`<=`, consecutive `>`/`>=` then `<`/`<=` pairs, a closing `>`/`>=`).
 */
export function versContains(range: Vers, version: string, ordering: Versioning): boolean {
  if (range.constraints === null) return true;
  const cmp = (a: string, b: string) => ordering.compare(a, b);
  const rest: Constraint[] = [];
  for (const c of range.constraints) {
    if (c.comparator === '=' && cmp(version, c.version) === 0) return true;
    if (c.comparator === '!=' && cmp(version, c.version) === 0) return false;
    if (c.comparator !== '=' && c.comparator !== '!=') rest.push(c);
  }
  if (rest.length === 0) return false;
  rest.sort((a, b) => cmp(a.version, b.version));
  const satisfies = (c: Constraint) => {
    const order = cmp(version, c.version);
    if (c.comparator === '<') return order < 0;
    if (c.comparator === '<=') return order <= 0;
    if (c.comparator === '>') return order > 0;
    return order >= 0;
  };
  const isLower = (c: Constraint) => c.comparator === '>' || c.comparator === '>=';
  const first = rest[0] as Constraint;
  const last = rest[rest.length - 1] as Constraint;
  if (!isLower(first) && satisfies(first)) return true;
  if (isLower(last) && satisfies(last)) return true;
  for (let i = 0; i + 1 < rest.length; i++) {
    const lower = rest[i] as Constraint;
    const upper = rest[i + 1] as Constraint;
    if (isLower(lower) && !isLower(upper) && satisfies(lower) && satisfies(upper)) return true;
  }
  return false;
}

/** The canonical spelling of a parsed range. */
export function formatVers(range: Vers): string {
  if (range.constraints === null) return `vers:${range.scheme}/*`;
  const parts = range.constraints.map(
    (c) => `${c.comparator === '=' ? '' : c.comparator}${c.version}`,
  );
  return `vers:${range.scheme}/${parts.join('|')}`;
}
