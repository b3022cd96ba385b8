import type { Kysely } from 'kysely';
import { chunks } from '../../core/chunks';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { anyOf } from './bulk-writes';

/**
 * Alias joining in the store. Advisories whose ids and aliases name each other (CVE, GHSA, PYSEC,
 * GO, RUSTSEC, ...) share one `vulnerabilities` row, so a flaw is counted once however many
 * databases publish it. A new record can bridge two groups (they merge: the larger keeps its id,
 * the other is marked `merged_into` so old links and exposures follow it) and a changed record can
 * drop an alias (the group splits: the larger part keeps the id, the rest gets a new one).
 */
export interface GroupInput {
  /** Advisory id → its id and aliases as the incoming record states them. */
  changed: Map<string, { keys: string[]; oldVulnerabilityId: string | null }>;
}

export interface GroupAssignment {
  /** Advisory id → vulnerability id, for every advisory whose group was looked at. */
  vulnerabilityOf: Map<string, string>;
  /** Unchanged advisories whose vulnerability id moved (merge or split). */
  moved: Map<string, string>;
  /** Vulnerability ids that need no row yet. */
  created: Set<string>;
  /** Old group → the group it was folded into. */
  merged: Map<string, string>;
  /** Every live vulnerability id whose members changed. */
  touched: Set<string>;
}

interface Member {
  keys: string[];
  oldVulnerabilityId: string | null;
}

const QUERY_CHUNK = 2000;

/** Loads stored advisories (not yet members) connected to `keys` or belonging to `groups`. */
async function loadConnected(
  db: Kysely<DB>,
  keys: string[],
  groups: string[],
  members: Map<string, Member>,
): Promise<Map<string, Member>> {
  const ids = new Set<string>();
  for (const part of chunks(keys, QUERY_CHUNK)) {
    const direct = await db
      .selectFrom('osv_advisories')
      .select('id')
      .where('id', '=', anyOf(part))
      .execute();
    for (const row of direct) ids.add(row.id);
    const viaAlias = await db
      .selectFrom('osv_advisory_aliases')
      .select('advisory_id')
      .where('alias', '=', anyOf(part))
      .execute();
    for (const row of viaAlias) ids.add(row.advisory_id);
  }
  for (const part of chunks(groups, QUERY_CHUNK)) {
    const rows = await db
      .selectFrom('osv_advisories')
      .select('id')
      .where('vulnerability_id', '=', anyOf(part))
      .execute();
    for (const row of rows) ids.add(row.id);
  }
  const fresh = [...ids].filter((id) => !members.has(id));
  const found = new Map<string, Member>();
  for (const part of chunks(fresh, QUERY_CHUNK)) {
    const rows = await db
      .selectFrom('osv_advisories')
      .select(['id', 'vulnerability_id'])
      .where('id', '=', anyOf(part))
      .execute();
    for (const row of rows)
      found.set(row.id, { keys: [row.id], oldVulnerabilityId: row.vulnerability_id });
    const aliases = await db
      .selectFrom('osv_advisory_aliases')
      .select(['advisory_id', 'alias'])
      .where('advisory_id', '=', anyOf(part))
      .execute();
    for (const row of aliases) found.get(row.advisory_id)?.keys.push(row.alias);
  }
  return found;
}

/** The changed advisories and every stored advisory connected to them, transitively. */
async function connectedMembers(db: Kysely<DB>, input: GroupInput): Promise<Map<string, Member>> {
  const members = new Map<string, Member>(input.changed);
  let frontierKeys = new Set<string>();
  let frontierGroups = new Set<string>();
  const seenKeys = new Set<string>();
  const seenGroups = new Set<string>();
  const enqueue = (member: Member) => {
    for (const key of member.keys) {
      if (!seenKeys.has(key)) {
        seenKeys.add(key);
        frontierKeys.add(key);
      }
    }
    const group = member.oldVulnerabilityId;
    if (group && !seenGroups.has(group)) {
      seenGroups.add(group);
      frontierGroups.add(group);
    }
  };
  for (const member of members.values()) enqueue(member);
  while (frontierKeys.size > 0 || frontierGroups.size > 0) {
    const found = await loadConnected(db, [...frontierKeys], [...frontierGroups], members);
    frontierKeys = new Set();
    frontierGroups = new Set();
    for (const [id, member] of found) {
      members.set(id, member);
      enqueue(member);
    }
  }
  return members;
}

/** Union-find over the members, joined by any shared key: the ids of each component. */
function componentsOf(members: Map<string, Member>): string[][] {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root) as string;
    let node = id;
    while (node !== root) {
      const next = parent.get(node) as string;
      parent.set(node, root);
      node = next;
    }
    return root;
  };
  const ownerOfKey = new Map<string, string>();
  for (const [id, member] of members) {
    parent.set(id, id);
    for (const key of member.keys) {
      const owner = ownerOfKey.get(key);
      if (owner === undefined) ownerOfKey.set(key, id);
      else parent.set(find(id), find(owner));
    }
  }
  const components = new Map<string, string[]>();
  for (const id of members.keys()) {
    const root = find(id);
    const list = components.get(root);
    if (list) list.push(id);
    else components.set(root, [id]);
  }
  return [...components.values()];
}

/**
 * Larger components choose first: each keeps the old id most of its members had, or gets a new
 * one; an old id no component kept merges into the one that took most of its members.
 */
function chooseIds(
  components: string[][],
  members: Map<string, Member>,
  input: GroupInput,
): GroupAssignment {
  const ordered = [...components].sort(
    (a, b) => b.length - a.length || ((a[0] ?? '') < (b[0] ?? '') ? -1 : 1),
  );
  const taken = new Set<string>();
  const assignment: GroupAssignment = {
    vulnerabilityOf: new Map(),
    moved: new Map(),
    created: new Set(),
    merged: new Map(),
    touched: new Set(),
  };
  const absorbedBy = new Map<string, Map<string, number>>();
  for (const component of ordered) {
    const counts = new Map<string, number>();
    for (const id of component) {
      const old = members.get(id)?.oldVulnerabilityId;
      if (old) counts.set(old, (counts.get(old) ?? 0) + 1);
    }
    const candidates = [...counts.entries()]
      .filter(([old]) => !taken.has(old))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    let chosen: string;
    const best = candidates[0];
    if (best) {
      chosen = best[0];
    } else {
      chosen = newId();
      assignment.created.add(chosen);
    }
    taken.add(chosen);
    assignment.touched.add(chosen);
    for (const [old, count] of counts) {
      if (old === chosen) continue;
      const tally = absorbedBy.get(old) ?? new Map<string, number>();
      tally.set(chosen, (tally.get(chosen) ?? 0) + count);
      absorbedBy.set(old, tally);
    }
    for (const id of component) {
      assignment.vulnerabilityOf.set(id, chosen);
      const member = members.get(id) as Member;
      if (!input.changed.has(id) && member.oldVulnerabilityId !== chosen) {
        assignment.moved.set(id, chosen);
      }
    }
  }
  for (const [old, tally] of absorbedBy) {
    if (taken.has(old)) continue;
    const target = [...tally.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    if (target) assignment.merged.set(old, target[0]);
  }
  return assignment;
}

/**
 * Works out the groups of the changed advisories and of every stored advisory connected to them
 * (transitively, through ids, aliases and their former groups).
 */
export async function assignGroups(db: Kysely<DB>, input: GroupInput): Promise<GroupAssignment> {
  const members = await connectedMembers(db, input);
  return chooseIds(componentsOf(members), members, input);
}
