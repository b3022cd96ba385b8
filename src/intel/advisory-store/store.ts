import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { canonicalId, MALICIOUS_SEVERITY } from '../osv/aliases';
import { type Advisory, isMaliciousId, type SeverityRating } from '../osv/types';
import { assignGroups } from './groups';

/**
 * Writes parsed OSV advisories into the shared store (system connection, inside the caller's
 * transaction). Idempotent: a record already stored with the same or a newer `modified` is left
 * alone, so importing the same data again changes nothing; a newer `modified` replaces the row,
 * its aliases and its affected entries.
 */
export interface IncomingAdvisory {
  advisory: Advisory;
  /** The record as read, kept verbatim for the detail endpoint and re-parsing. */
  raw: unknown;
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

export function contentHash(raw: unknown): string {
  return createHash('sha256').update(JSON.stringify(raw)).digest('hex');
}

const keyOf = (p: PackageKey) => `${p.ecosystem}\u0000${p.name}`;

function fixedVersionsOf(affected: Advisory['affected'][number]): string[] {
  const fixed = new Set<string>();
  for (const range of affected.ranges) {
    if (range.type === 'GIT') continue;
    for (const event of range.events)
      if (event.kind === 'fixed' && event.version) fixed.add(event.version);
  }
  return [...fixed];
}

/** Stores one batch; returns what changed. Duplicate ids in a batch: the newest wins. */
export async function storeAdvisoryBatch(
  db: Kysely<DB>,
  batch: IncomingAdvisory[],
): Promise<BatchResult> {
  const newest = newestPerId(batch);
  const result: BatchResult = {
    added: 0,
    updated: 0,
    unchanged: batch.length - newest.size,
    changedPackages: [],
    changedVulnerabilities: [],
    severityRaised: [],
  };
  if (newest.size === 0) return result;

  const { changed, existing } = await changedAdvisories(db, newest, result);
  if (changed.length === 0) return result;

  const packages = new Map<string, PackageKey>();
  const changedIds = changed.map((item) => item.advisory.id);
  const before = await db
    .selectFrom('osv_affected')
    .select(['ecosystem', 'name'])
    .where('advisory_id', 'in', changedIds)
    .execute();
  for (const row of before) packages.set(keyOf(row), { ecosystem: row.ecosystem, name: row.name });

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

  if (groups.created.size > 0) {
    await db
      .insertInto('vulnerabilities')
      .values(
        [...groups.created].map((id) => ({
          id,
          canonical_id: id,
          modified_at: new Date(),
        })),
      )
      .execute();
  }

  await writeAdvisories(db, changed, groups.vulnerabilityOf);
  await writeAliasesAndAffected(db, changed, changedIds, packages);
  await applyGroupChanges(db, groups, packages);
  const raised = await refreshVulnerabilities(db, [...groups.touched]);
  result.severityRaised = await withPackages(
    db,
    raised.filter((r) => !groups.created.has(r.vulnerabilityId)),
  );
  result.changedPackages = [...packages.values()];
  result.changedVulnerabilities = [...groups.touched];
  return result;
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
        .where('id', 'in', [...newest.keys()])
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

/** Upserts the changed advisories, each pointing at its group's vulnerability. */
async function writeAdvisories(
  db: Kysely<DB>,
  changed: IncomingAdvisory[],
  vulnerabilityOf: Map<string, string>,
): Promise<void> {
  const advisoryRows = changed.map((item) => {
    const a = item.advisory;
    return {
      id: a.id,
      vulnerability_id: vulnerabilityOf.get(a.id) as string,
      modified_at: new Date(a.modified),
      published_at: a.published ? new Date(a.published) : null,
      withdrawn_at: a.withdrawn ? new Date(a.withdrawn) : null,
      summary: a.summary,
      details: a.details,
      severity_rating: a.severity.rating,
      severity_score: a.severity.score,
      severity_vector: a.severity.vector,
      severity_type: a.severity.source,
      refs: JSON.stringify(a.references),
      raw: JSON.stringify(item.raw),
      content_hash: contentHash(item.raw),
      source: item.source,
    };
  });
  for (let i = 0; i < advisoryRows.length; i += 100) {
    await db
      .insertInto('osv_advisories')
      .values(advisoryRows.slice(i, i + 100))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          vulnerability_id: eb.ref('excluded.vulnerability_id'),
          modified_at: eb.ref('excluded.modified_at'),
          published_at: eb.ref('excluded.published_at'),
          withdrawn_at: eb.ref('excluded.withdrawn_at'),
          summary: eb.ref('excluded.summary'),
          details: eb.ref('excluded.details'),
          severity_rating: eb.ref('excluded.severity_rating'),
          severity_score: eb.ref('excluded.severity_score'),
          severity_vector: eb.ref('excluded.severity_vector'),
          severity_type: eb.ref('excluded.severity_type'),
          refs: eb.ref('excluded.refs'),
          raw: eb.ref('excluded.raw'),
          content_hash: eb.ref('excluded.content_hash'),
          source: eb.ref('excluded.source'),
          updated_at: sql<Date>`now()`,
        })),
      )
      .execute();
  }
}

/** Replaces the changed advisories' aliases and affected packages; notes the packages named. */
async function writeAliasesAndAffected(
  db: Kysely<DB>,
  changed: IncomingAdvisory[],
  changedIds: string[],
  packages: Map<string, PackageKey>,
): Promise<void> {
  await db.deleteFrom('osv_advisory_aliases').where('advisory_id', 'in', changedIds).execute();
  await db.deleteFrom('osv_affected').where('advisory_id', 'in', changedIds).execute();
  const aliasRows = changed.flatMap((item) =>
    [...new Set(item.advisory.aliases)]
      .filter((alias) => alias !== item.advisory.id)
      .map((alias) => ({ advisory_id: item.advisory.id, alias })),
  );
  for (let i = 0; i < aliasRows.length; i += 1000) {
    await db
      .insertInto('osv_advisory_aliases')
      .values(aliasRows.slice(i, i + 1000))
      .execute();
  }
  const affectedRows = changed.flatMap((item) =>
    item.advisory.affected.map((affected, ordinal) => {
      const ecosystem = affected.ecosystem ?? affected.osvEcosystem;
      packages.set(keyOf({ ecosystem, name: affected.name }), { ecosystem, name: affected.name });
      return {
        advisory_id: item.advisory.id,
        ordinal,
        ecosystem,
        osv_ecosystem: affected.osvEcosystem,
        name: affected.name,
        osv_name: affected.rawName,
        ranges: JSON.stringify(affected.ranges),
        versions: affected.versions,
        fixed_versions: fixedVersionsOf(affected),
        withdrawn: item.advisory.withdrawn !== null,
      };
    }),
  );
  for (let i = 0; i < affectedRows.length; i += 500) {
    await db
      .insertInto('osv_affected')
      .values(affectedRows.slice(i, i + 500))
      .execute();
  }
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
      .where('osv_advisories.vulnerability_id', 'in', [...groups.touched])
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
    const updates: object[] = [];
    for (const id of part) {
      const derived = derivedColumns(id, byGroup.get(id) ?? [], aliases, affected);
      if (derived) updates.push(derived);
    }
    // One statement per chunk: the derived columns travel as JSON.
    if (updates.length > 0) raised.push(...(await writeDerivedColumns(db, updates)));
  }
  return raised;
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
    .where(
      'osv_advisories.vulnerability_id',
      'in',
      raised.map((r) => r.vulnerabilityId),
    )
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
    .where('vulnerability_id', 'in', part)
    .execute();
  const memberIds = advisories.map((a) => a.id);
  const aliases = memberIds.length
    ? await db
        .selectFrom('osv_advisory_aliases')
        .select(['advisory_id', 'alias'])
        .where('advisory_id', 'in', memberIds)
        .execute()
    : [];
  const affected = memberIds.length
    ? await db
        .selectFrom('osv_affected')
        .select(['advisory_id', 'ecosystem', 'name'])
        .where('advisory_id', 'in', memberIds)
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
      aliases = ARRAY(SELECT jsonb_array_elements_text(x.aliases)),
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
      ecosystems = ARRAY(SELECT jsonb_array_elements_text(x.ecosystems)),
      search_text = x.search_text,
      merged_into = NULL,
      updated_at = now()
    FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS x(
      id uuid, canonical_id text, aliases jsonb, kind text, summary text, details text,
      severity_rating text, severity_score numeric, severity_vector text, severity_type text,
      published_at timestamptz, modified_at timestamptz, withdrawn_at timestamptz,
      ecosystems jsonb, search_text text), vulnerabilities old
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
