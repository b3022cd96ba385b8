import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { canonicalId, MALICIOUS_SEVERITY } from '../osv/aliases';
import { type Advisory, isMaliciousId, type SeverityRating } from '../osv/types';
import {
  advisoryRowStatements,
  aliasAndAffectedStatements,
  anyOf,
  deleteReplacedRows,
  executeTogether,
  keyOf,
  type PreparedRows,
  prepareRows,
  type WriteStatement,
} from './bulk-writes';
import { assignGroups, type GroupAssignment } from './groups';

/**
 * Writes parsed OSV advisories into the shared store (system connection, inside the caller's
 * transaction). Idempotent: a record already stored with the same or a newer `modified` is left
 * alone, so importing the same data again changes nothing; a newer `modified` replaces the row,
 * its aliases and its affected entries.
 */
export interface IncomingAdvisory {
  advisory: Advisory;
  /** File path, `file#line`, `zip!entry` or feed URL. */
  source: string;
}

export interface PackageKey {
  ecosystem: string;
  name: string;
}

export interface BatchResult {
  added: number;
  updated: number;
  /** Same id and the same or an older `modified` than what is stored. */
  unchanged: number;
  /** Packages named by the advisories that changed (before and after): these get re-matched. */
  changedPackages: PackageKey[];
  changedVulnerabilities: string[];
  /** Vulnerabilities (existing before the batch) whose severity this batch raised. */
  severityRaised: SeverityRaise[];
}

export interface SeverityRaise {
  vulnerabilityId: string;
  canonicalId: string;
  previousSeverity: SeverityRating | null;
  severity: SeverityRating;
  packages: PackageKey[];
}

const RATING_RANK: Record<SeverityRating, number> = { low: 1, medium: 2, high: 3, critical: 4 };

/** pg_advisory_xact_lock key of the store's writers ("osvstore" in ASCII, as a bigint). */
const WRITE_LOCK = 0x6f7376_73746f7265n;

/**
 * Serialises writers of the store (an import and the scheduled sync) until the caller's
 * transaction ends: what a batch looks up (stored ids, alias groups) stays true until it
 * writes, so new advisories take a plain INSERT and no two writers build the same group, and
 * the store needs no foreign keys (migration 0033). PGlite has one connection: it never waits.
 */
async function takeWriteLock(db: Kysely<DB>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${WRITE_LOCK.toString()}::bigint)`.execute(db);
}

export interface BatchHooks {
  /**
   * Called once the batch's lookups are done and its bulk writes go out: from here on the
   * server has most of the batch's work to do, so the caller may use Node for something else
   * (the importer lets its caller read the next records: import.ts).
   */
  writing?: () => void;
}

/** A batch with what its writes need that no lookup decides (`prepareAdvisoryBatch`). */
export interface PreparedBatch {
  size: number;
  newest: Map<string, IncomingAdvisory>;
  rows: PreparedRows | null;
}

/**
 * Node's share of a batch that reads nothing from the store: run while the previous batch's
 * writes are still on the server (import.ts), it overlaps with them. `rows: false` leaves the
 * rows to `storeAdvisoryBatch`, which builds them only if something changed.
 */
export function prepareAdvisoryBatch(
  batch: IncomingAdvisory[],
  options: { rows: boolean } = { rows: true },
): PreparedBatch {
  const newest = newestPerId(batch);
  return {
    size: batch.length,
    newest,
    rows: options.rows ? prepareRows(newest.values()) : null,
  };
}

/** Stores one batch; returns what changed. Duplicate ids in a batch: the newest wins. */
export async function storeAdvisoryBatch(
  db: Kysely<DB>,
  batch: IncomingAdvisory[] | PreparedBatch,
  hooks: BatchHooks = {},
): Promise<BatchResult> {
  const prepared = Array.isArray(batch) ? prepareAdvisoryBatch(batch, { rows: false }) : batch;
  const newest = prepared.newest;
  const result: BatchResult = {
    added: 0,
    updated: 0,
    unchanged: prepared.size - newest.size,
    changedPackages: [],
    changedVulnerabilities: [],
    severityRaised: [],
  };
  if (newest.size === 0) return result;

  await takeWriteLock(db);
  const { changed, existing } = await changedAdvisories(db, newest, result);
  if (changed.length === 0) return result;

  const packages = new Map<string, PackageKey>();
  const changedIds = changed.map((item) => item.advisory.id);
  // Only advisories stored before can have affected rows (and aliases) to replace.
  const replacedIds = changedIds.filter((id) => existing.has(id));
  if (replacedIds.length > 0) {
    const before = await db
      .selectFrom('osv_affected')
      .select(['ecosystem', 'name'])
      .where('advisory_id', '=', anyOf(replacedIds))
      .execute();
    for (const row of before)
      packages.set(keyOf(row), { ecosystem: row.ecosystem, name: row.name });
  }

  const groups = await assignGroups(db, {
    changed: new Map(
      changed.map((item) => [
        item.advisory.id,
        {
          keys: [item.advisory.id, ...item.advisory.aliases],
          oldVulnerabilityId: existing.get(item.advisory.id)?.vulnerability_id ?? null,
        },
      ]),
    ),
  });

  if (replacedIds.length > 0) await deleteReplacedRows(db, replacedIds);
  const { derivedNow, statements } = await createVulnerabilities(db, groups, changed);
  const rows = prepared.rows ?? prepareRows(newest.values());
  statements.push(
    ...advisoryRowStatements(rows, changed, groups.vulnerabilityOf, new Set(replacedIds)),
    ...aliasAndAffectedStatements(rows, changed, packages),
  );
  hooks.writing?.();
  await executeTogether(db, statements);
  await applyGroupChanges(db, groups, packages);
  const raised = await refreshVulnerabilities(
    db,
    [...groups.touched].filter((id) => !derivedNow.has(id)),
  );
  result.severityRaised = await withPackages(
    db,
    raised.filter((r) => !groups.created.has(r.vulnerabilityId)),
  );
  result.changedPackages = [...packages.values()];
  result.changedVulnerabilities = [...groups.touched];
  return result;
}

/** A score numeric(3, 1) stores as given (so members read back from the store compare the same). */
const EXACT_SCORE = /^\d{1,2}(\.\d)?$/;

/**
 * Inserts the groups this batch created. A group whose members are all in the batch gets its
 * derived columns at once, computed by `derivedColumns` from the incoming records exactly as
 * `refreshVulnerabilities` would from the stored rows; the others (a split that moved stored
 * advisories into a new group) get a placeholder row that the refresh completes. Returns the ids
 * already derived and the inserts of their rows (for `executeTogether`).
 */
async function createVulnerabilities(
  db: Kysely<DB>,
  groups: GroupAssignment,
  changed: readonly IncomingAdvisory[],
): Promise<{ derivedNow: Set<string>; statements: WriteStatement[] }> {
  const derivedNow = new Set<string>();
  const statements: WriteStatement[] = [];
  if (groups.created.size === 0) return { derivedNow, statements };
  const incoming = new Map(changed.map((item) => [item.advisory.id, item]));
  const membersOf = new Map<string, IncomingAdvisory[]>();
  const complete = new Set(groups.created);
  for (const [advisoryId, vulnerabilityId] of groups.vulnerabilityOf) {
    if (!complete.has(vulnerabilityId)) continue;
    const item = incoming.get(advisoryId);
    const score = item?.advisory.severity.score;
    if (!item || (score !== null && score !== undefined && !EXACT_SCORE.test(String(score)))) {
      complete.delete(vulnerabilityId);
      continue;
    }
    const list = membersOf.get(vulnerabilityId);
    if (list) list.push(item);
    else membersOf.set(vulnerabilityId, [item]);
  }
  const rows: object[] = [];
  for (const id of complete) {
    const derived = derivedColumns(id, ...membersInMemory(id, membersOf.get(id) ?? []));
    if (!derived) continue;
    rows.push(derived);
    derivedNow.add(id);
  }
  const placeholders = [...groups.created].filter((id) => !derivedNow.has(id));
  if (placeholders.length > 0) {
    await db
      .insertInto('vulnerabilities')
      .values(placeholders.map((id) => ({ id, canonical_id: id, modified_at: new Date() })))
      .execute();
  }
  for (let i = 0; i < rows.length; i += 500) statements.push(insertDerived(rows.slice(i, i + 500)));
  return { derivedNow, statements };
}

/** Incoming records in the shape `loadMembers` reads them back from the store. */
function membersInMemory(vulnerabilityId: string, items: readonly IncomingAdvisory[]) {
  const advisories: Members['advisories'] = [];
  const aliases: Members['aliases'] = [];
  const affected: Members['affected'] = [];
  const date = (value: string | null) => (value ? new Date(value) : null);
  for (const { advisory: a } of items) {
    advisories.push({
      id: a.id,
      vulnerability_id: vulnerabilityId,
      summary: a.summary,
      details: a.details,
      severity_rating: a.severity.rating,
      severity_score: a.severity.score,
      severity_vector: a.severity.vector,
      severity_type: a.severity.source,
      published_at: date(a.published),
      modified_at: new Date(a.modified),
      withdrawn_at: date(a.withdrawn),
    });
    for (const alias of new Set(a.aliases)) {
      if (alias !== a.id) aliases.push({ advisory_id: a.id, alias });
    }
    for (const entry of a.affected) {
      affected.push({
        advisory_id: a.id,
        ecosystem: entry.ecosystem ?? entry.osvEcosystem,
        name: entry.name,
      });
    }
  }
  return [advisories, aliases, affected] as const;
}

function insertDerived(rows: object[]): WriteStatement {
  return sql`
    INSERT INTO vulnerabilities (id, canonical_id, aliases, kind, summary, details,
      severity_rating, severity_score, severity_vector, severity_type, published_at, modified_at,
      withdrawn_at, ecosystems, search_text)
    SELECT x.id, x.canonical_id, x.aliases, x.kind,
      x.summary, x.details, x.severity_rating, x.severity_score, x.severity_vector,
      x.severity_type, x.published_at, x.modified_at, x.withdrawn_at,
      x.ecosystems, x.search_text
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(
      id uuid, canonical_id text, aliases text[], kind text, summary text, details text,
      severity_rating text, severity_score numeric, severity_vector text, severity_type text,
      published_at timestamptz, modified_at timestamptz, withdrawn_at timestamptz,
      ecosystems text[], search_text text)`;
}

function newestPerId(batch: IncomingAdvisory[]): Map<string, IncomingAdvisory> {
  const newest = new Map<string, IncomingAdvisory>();
  for (const item of batch) {
    const seen = newest.get(item.advisory.id);
    if (!seen || Date.parse(item.advisory.modified) > Date.parse(seen.advisory.modified)) {
      newest.set(item.advisory.id, item);
    }
  }
  return newest;
}

/** The advisories newer than what is stored (counted in `result` as added, updated, unchanged). */
async function changedAdvisories(
  db: Kysely<DB>,
  newest: Map<string, IncomingAdvisory>,
  result: BatchResult,
) {
  const existing = new Map(
    (
      await db
        .selectFrom('osv_advisories')
        .select(['id', 'modified_at', 'vulnerability_id'])
        .where('id', '=', anyOf([...newest.keys()]))
        .execute()
    ).map((row) => [row.id, row]),
  );
  const changed: IncomingAdvisory[] = [];
  for (const item of newest.values()) {
    const stored = existing.get(item.advisory.id);
    if (stored && stored.modified_at.getTime() >= Date.parse(item.advisory.modified)) {
      result.unchanged++;
      continue;
    }
    changed.push(item);
    if (stored) result.updated++;
    else result.added++;
  }
  return { changed, existing };
}

/** Moves advisories between groups and merges vulnerabilities as the alias groups say. */
async function applyGroupChanges(
  db: Kysely<DB>,
  groups: Awaited<ReturnType<typeof assignGroups>>,
  packages: Map<string, PackageKey>,
): Promise<void> {
  for (const [advisoryId, vulnerabilityId] of groups.moved) {
    await db
      .updateTable('osv_advisories')
      .set({ vulnerability_id: vulnerabilityId })
      .where('id', '=', advisoryId)
      .execute();
  }
  for (const [from, to] of groups.merged) {
    await db
      .updateTable('vulnerabilities')
      .set({ merged_into: to, updated_at: sql<Date>`now()` })
      .where((eb) => eb.or([eb('id', '=', from), eb('merged_into', '=', from)]))
      .execute();
  }
  // A group that moved or merged changes the vulnerability id of every package its members name.
  if (groups.moved.size > 0 || groups.merged.size > 0) {
    const members = await db
      .selectFrom('osv_affected')
      .innerJoin('osv_advisories', 'osv_advisories.id', 'osv_affected.advisory_id')
      .select(['osv_affected.ecosystem', 'osv_affected.name'])
      .where('osv_advisories.vulnerability_id', '=', anyOf([...groups.touched]))
      .execute();
    for (const row of members)
      packages.set(keyOf(row), { ecosystem: row.ecosystem, name: row.name });
  }
}

/** The canonical id of a group: the same rule as the offline audit (src/intel/osv/aliases.ts). */
export function canonicalIdOf(ids: string[]): string {
  return ids.length === 0 ? '' : canonicalId(ids);
}

/**
 * Recomputes the derived columns of vulnerabilities from their member advisories; returns those
 * whose severity rating rose (from a lower rating, or from none).
 */
export async function refreshVulnerabilities(
  db: Kysely<DB>,
  ids: string[],
): Promise<Omit<SeverityRaise, 'packages'>[]> {
  const raised: Omit<SeverityRaise, 'packages'>[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const { advisories, aliases, affected } = await loadMembers(db, part);
    const byGroup = new Map<string, typeof advisories>();
    for (const a of advisories) {
      const list = byGroup.get(a.vulnerability_id) ?? [];
      list.push(a);
      byGroup.set(a.vulnerability_id, list);
    }
    // Each group's alias and affected rows, in the order read (derivedColumns filters by member).
    const groupOf = new Map(advisories.map((a) => [a.id, a.vulnerability_id]));
    const aliasesOf = bucket(aliases, groupOf);
    const affectedOf = bucket(affected, groupOf);
    const updates: object[] = [];
    for (const id of part) {
      const derived = derivedColumns(
        id,
        byGroup.get(id) ?? [],
        aliasesOf.get(id) ?? [],
        affectedOf.get(id) ?? [],
      );
      if (derived) updates.push(derived);
    }
    // One statement per chunk: the derived columns travel as JSON.
    if (updates.length > 0) raised.push(...(await writeDerivedColumns(db, updates)));
  }
  return raised;
}

function bucket<T extends { advisory_id: string }>(
  rows: readonly T[],
  groupOf: ReadonlyMap<string, string>,
): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const group = groupOf.get(row.advisory_id);
    if (group === undefined) continue;
    const list = out.get(group);
    if (list) list.push(row);
    else out.set(group, [row]);
  }
  return out;
}

/** The packages the live advisories of each raised vulnerability name. */
async function withPackages(
  db: Kysely<DB>,
  raised: Omit<SeverityRaise, 'packages'>[],
): Promise<SeverityRaise[]> {
  if (raised.length === 0) return [];
  const rows = await db
    .selectFrom('osv_affected')
    .innerJoin('osv_advisories', 'osv_advisories.id', 'osv_affected.advisory_id')
    .select(['osv_advisories.vulnerability_id', 'osv_affected.ecosystem', 'osv_affected.name'])
    .distinct()
    .where('osv_advisories.vulnerability_id', '=', anyOf(raised.map((r) => r.vulnerabilityId)))
    .execute();
  return raised.map((r) => ({
    ...r,
    packages: rows
      .filter((row) => row.vulnerability_id === r.vulnerabilityId)
      .map((row) => ({ ecosystem: row.ecosystem, name: row.name })),
  }));
}

/** The member advisories of these vulnerabilities, with their aliases and affected packages. */
async function loadMembers(db: Kysely<DB>, part: string[]) {
  const advisories = await db
    .selectFrom('osv_advisories')
    .select([
      'id',
      'vulnerability_id',
      'summary',
      'details',
      'severity_rating',
      'severity_score',
      'severity_vector',
      'severity_type',
      'published_at',
      'modified_at',
      'withdrawn_at',
    ])
    .where('vulnerability_id', '=', anyOf(part))
    .execute();
  const memberIds = advisories.map((a) => a.id);
  const aliases = memberIds.length
    ? await db
        .selectFrom('osv_advisory_aliases')
        .select(['advisory_id', 'alias'])
        .where('advisory_id', '=', anyOf(memberIds))
        .execute()
    : [];
  const affected = memberIds.length
    ? await db
        .selectFrom('osv_affected')
        .select(['advisory_id', 'ecosystem', 'name'])
        .where('advisory_id', '=', anyOf(memberIds))
        .execute()
    : [];
  return { advisories, aliases, affected };
}

type Members = Awaited<ReturnType<typeof loadMembers>>;

/**
 * A vulnerability's derived columns from its members: withdrawn members count only when all
 * are; severity from the most severe, texts from the most recently modified that has one.
 */
function derivedColumns(
  id: string,
  members: Members['advisories'],
  aliases: Members['aliases'],
  affected: Members['affected'],
) {
  const first = members[0];
  if (!first) return null;
  const names = new Set(members.map((m) => m.id));
  const keys = new Set(names);
  for (const row of aliases) if (names.has(row.advisory_id)) keys.add(row.alias);
  const live = members.filter((m) => !m.withdrawn_at);
  const pool = live.length > 0 ? live : members;
  const liveIds = new Set(pool.map((m) => m.id));
  const ecosystems = new Set<string>();
  const packageNames = new Set<string>();
  for (const row of affected) {
    if (!liveIds.has(row.advisory_id)) continue;
    ecosystems.add(row.ecosystem);
    packageNames.add(row.name);
  }
  const severe =
    [...pool].sort(
      (a, b) =>
        (b.severity_rating ? RATING_RANK[b.severity_rating] : 0) -
          (a.severity_rating ? RATING_RANK[a.severity_rating] : 0) ||
        Number(b.severity_score ?? -1) - Number(a.severity_score ?? -1),
    )[0] ?? first;
  // The summary of the most recently modified live record that has one.
  const described =
    [...pool]
      .filter((m) => m.summary)
      .sort((a, b) => b.modified_at.getTime() - a.modified_at.getTime())[0] ?? first;
  const detailed =
    [...pool]
      .filter((m) => m.details)
      .sort((a, b) => b.modified_at.getTime() - a.modified_at.getTime())[0] ?? first;
  const canonical = canonicalIdOf([...keys]);
  const published = members
    .map((m) => m.published_at)
    .filter((d): d is Date => d !== null)
    .sort((a, b) => a.getTime() - b.getTime())[0];
  const modified =
    members.map((m) => m.modified_at).sort((a, b) => b.getTime() - a.getTime())[0] ??
    first.modified_at;
  const withdrawn =
    live.length === 0
      ? (members.map((m) => m.withdrawn_at as Date).sort((a, b) => b.getTime() - a.getTime())[0] ??
        null)
      : null;
  const aliasList = [...keys].filter((k) => k !== canonical).sort();
  // A malicious package (a live MAL- member) is its own kind, critical by rule (src/intel/osv).
  const malicious = pool.some((m) => isMaliciousId(m.id));
  return {
    id,
    canonical_id: canonical,
    aliases: aliasList,
    kind: malicious ? 'malicious' : 'vulnerability',
    summary: described.summary,
    details: detailed.details,
    severity_rating: malicious ? MALICIOUS_SEVERITY.rating : severe.severity_rating,
    severity_score: severe.severity_score === null ? null : Number(severe.severity_score),
    severity_vector: severe.severity_vector,
    severity_type: malicious ? MALICIOUS_SEVERITY.source : severe.severity_type,
    published_at: published?.toISOString() ?? null,
    modified_at: modified.toISOString(),
    withdrawn_at: withdrawn?.toISOString() ?? null,
    ecosystems: [...ecosystems].sort(),
    search_text: [canonical, ...aliasList, described.summary ?? '', ...packageNames]
      .join('\n')
      .toLowerCase(),
  };
}

async function writeDerivedColumns(
  db: Kysely<DB>,
  updates: object[],
): Promise<Omit<SeverityRaise, 'packages'>[]> {
  // `old` is the row as it was before this statement: its rating is the previous one.
  const { rows } = await sql<{
    id: string;
    canonical_id: string;
    previous: SeverityRating | null;
    severity: SeverityRating | null;
  }>`
    UPDATE vulnerabilities v SET
      canonical_id = x.canonical_id,
      aliases = x.aliases,
      kind = x.kind,
      summary = x.summary,
      details = x.details,
      severity_rating = x.severity_rating,
      severity_score = x.severity_score,
      severity_vector = x.severity_vector,
      severity_type = x.severity_type,
      published_at = x.published_at,
      modified_at = x.modified_at,
      withdrawn_at = x.withdrawn_at,
      ecosystems = x.ecosystems,
      search_text = x.search_text,
      merged_into = NULL,
      updated_at = now()
    FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS x(
      id uuid, canonical_id text, aliases text[], kind text, summary text, details text,
      severity_rating text, severity_score numeric, severity_vector text, severity_type text,
      published_at timestamptz, modified_at timestamptz, withdrawn_at timestamptz,
      ecosystems text[], search_text text), vulnerabilities old
    WHERE v.id = x.id AND old.id = v.id
    RETURNING v.id, v.canonical_id, old.severity_rating AS previous, v.severity_rating AS severity`.execute(
    db,
  );
  const rank = (rating: SeverityRating | null) => (rating ? RATING_RANK[rating] : 0);
  return rows.flatMap((row) =>
    row.severity && rank(row.severity) > rank(row.previous)
      ? [
          {
            vulnerabilityId: row.id,
            canonicalId: row.canonical_id,
            previousSeverity: row.previous,
            severity: row.severity,
          },
        ]
      : [],
  );
}
