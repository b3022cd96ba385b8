import { maxSeverity } from './severity';
import { type Advisory, isMaliciousId, type Severity, type Vulnerability } from './types';

/**
 * Alias grouping: records that name each other through `id` or `aliases` (CVE, GHSA, PYSEC, GO,
 * RUSTSEC, ...) are one flaw. Union-find over every id and alias, so A→CVE←B joins A and B even
 * when neither lists the other. `related` never joins (it names different flaws).
 *
 * Canonical id (stable: depends only on the set of ids, not on input order):
 *   1. the lowest CVE id of the group (record id or alias) — the name the world uses;
 *   2. else the lowest GHSA id;
 *   3. else the lowest record id of a native database (PYSEC, GO, RUSTSEC, OSV, ...), with
 *      derived/private ids (`x_...`) last.
 * "Lowest" is by year then number for CVE-YYYY-NNNN, plain string order otherwise.
 */

/** Union-find over ids, with path compression; the smaller id string becomes the root. */
export class UnionFind {
  private readonly parent = new Map<string, string>();

  find(x: string): string {
    let root = x;
    for (let next = this.parent.get(root); next !== undefined && next !== root; ) {
      root = next;
      next = this.parent.get(root);
    }
    // Path compression keeps later lookups near O(1).
    let node = x;
    while (node !== root) {
      const next = this.parent.get(node) ?? root;
      this.parent.set(node, root);
      node = next;
    }
    if (!this.parent.has(root)) this.parent.set(root, root);
    return root;
  }

  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
}

const CVE = /^CVE-(\d{4})-(\d+)$/;

function idClass(id: string): number {
  if (CVE.test(id)) return 0;
  if (id.startsWith('GHSA-')) return 1;
  if (id.startsWith('x_') || id.startsWith('X_')) return 3;
  return 2;
}

/** Total order used to pick the canonical id (see the header comment). */
export function compareCanonical(a: string, b: string): number {
  const byClass = idClass(a) - idClass(b);
  if (byClass !== 0) return byClass;
  const ca = CVE.exec(a);
  const cb = CVE.exec(b);
  if (ca && cb) {
    const byYear = Number(ca[1]) - Number(cb[1]);
    if (byYear !== 0) return byYear;
    const byNumber = Number(ca[2]) - Number(cb[2]);
    if (byNumber !== 0) return byNumber;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The canonical id of a group given its record ids and aliases. */
export function canonicalId(ids: Iterable<string>): string {
  let best: string | null = null;
  for (const id of ids) if (best === null || compareCanonical(id, best) < 0) best = id;
  if (best === null) throw new Error('canonicalId of an empty group');
  return best;
}

const NO_SEVERITY: Severity = { source: 'none', score: null, rating: null, vector: null };
/** A malicious package is critical by rule: installing it is a compromise, not a flaw to weigh. */
export const MALICIOUS_SEVERITY: Severity = {
  source: 'malicious',
  score: null,
  rating: 'critical',
  vector: null,
};

/**
 * Joins advisories into vulnerabilities. Two records with the same id (the same advisory from two
 * files) stay two members; callers that want one per id dedupe first (`latestById`).
 */
export function groupAdvisories(advisories: readonly Advisory[]): Vulnerability[] {
  const uf = new UnionFind();
  for (const advisory of advisories) {
    uf.find(advisory.id);
    for (const alias of advisory.aliases) uf.union(advisory.id, alias);
  }
  const groups = new Map<string, Advisory[]>();
  for (const advisory of advisories) {
    const root = uf.find(advisory.id);
    const list = groups.get(root);
    if (list) list.push(advisory);
    else groups.set(root, [advisory]);
  }
  const out: Vulnerability[] = [];
  for (const members of groups.values()) {
    const all = new Set<string>();
    for (const advisory of members) {
      all.add(advisory.id);
      for (const alias of advisory.aliases) all.add(alias);
    }
    const id = canonicalId(all);
    all.delete(id);
    members.sort((a, b) => compareCanonical(a.id, b.id));
    // Withdrawn members do not raise the severity of a flaw that is still live.
    const live = members.some((m) => !m.withdrawn) ? members.filter((m) => !m.withdrawn) : members;
    const malicious = live.some((m) => isMaliciousId(m.id));
    out.push({
      id,
      ids: [...new Set(members.map((m) => m.id))].sort(),
      aliases: [...all].sort(),
      advisories: members,
      kind: malicious ? 'malicious' : 'vulnerability',
      severity: malicious
        ? MALICIOUS_SEVERITY
        : live.reduce((s, m) => maxSeverity(s, m.severity), NO_SEVERITY),
      withdrawn: members.every((m) => m.withdrawn !== null),
    });
  }
  return out.sort((a, b) => compareCanonical(a.id, b.id));
}

/** Keeps one advisory per id: the one with the newest `modified` (first seen on a tie). */
export function latestById(advisories: readonly Advisory[]): Advisory[] {
  const byId = new Map<string, Advisory>();
  for (const advisory of advisories) {
    const current = byId.get(advisory.id);
    if (!current || advisory.modified > current.modified) byId.set(advisory.id, advisory);
  }
  return [...byId.values()];
}

/** Maps every advisory id to its vulnerability. */
export function vulnerabilityByAdvisoryId(
  groups: readonly Vulnerability[],
): Map<string, Vulnerability> {
  const map = new Map<string, Vulnerability>();
  for (const group of groups) for (const id of group.ids) map.set(id, group);
  return map;
}
