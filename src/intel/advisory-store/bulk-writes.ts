import { type Kysely, type RawBuilder, sql } from 'kysely';
import { chunks } from '../../core/chunks';
import { compositeKey } from '../../core/composite-key';
import type { DB } from '../../db/schema';
import type { Advisory } from '../osv/types';

/**
 * The advisory store's writes as one statement per batch, one part per table
 * (docs/vulnerabilities.md, "Importing the whole OSV database"): the rows travel as one JSON
 * document per table, built before the batch's lookups (`prepareRows`), that PostgreSQL
 * decomposes with `jsonb_to_recordset`, or as parallel arrays through `unnest`, instead of one
 * bound parameter per column and row in statements of 100. What is stored is the same as
 * with row-by-row values: the same columns, the same conversions (timestamps as ISO text with
 * milliseconds, numbers as their shortest decimal text, JSON columns parsed by the server).
 */

/** What store.ts calls IncomingAdvisory and PackageKey (declared here too: store.ts imports this file). */
interface IncomingAdvisory {
  advisory: Advisory;
  source: string;
}

interface PackageKey {
  ecosystem: string;
  name: string;
}

export const keyOf = (p: PackageKey) => compositeKey(p.ecosystem, p.name);

/**
 * `= ANY($1)` with the keys as one array parameter: cheaper to build, send, parse and plan than
 * `IN ($1, ..., $2000)` (one bound parameter per key), on both databases.
 */
export const anyOf = (values: readonly string[]) => sql<string>`any(${values})`;

function fixedVersionsOf(affected: Advisory['affected'][number]): string[] {
  const fixed = new Set<string>();
  for (const range of affected.ranges) {
    if (range.type === 'GIT') continue;
    for (const event of range.events)
      if (event.kind === 'fixed' && event.version) fixed.add(event.version);
  }
  return [...fixed];
}

const iso = (value: string | null) => (value ? new Date(value).toISOString() : null);

/** One `osv_advisories` row but its group (`vulnerability_id`, decided by the lookups). */
function advisoryRow(item: IncomingAdvisory) {
  const a = item.advisory;
  return {
    id: a.id,
    modified_at: iso(a.modified),
    published_at: iso(a.published),
    withdrawn_at: iso(a.withdrawn),
    summary: a.summary,
    details: a.details,
    severity_rating: a.severity.rating,
    severity_score: a.severity.score,
    severity_vector: a.severity.vector,
    severity_type: a.severity.source,
    refs: a.references,
    source: item.source,
  };
}

/**
 * What a batch's writes need that no lookup decides (the rows as JSON documents): built before
 * the batch's turn, while the server still writes the previous batch (import.ts). The documents
 * hold every record of the batch; the statements keep those that changed.
 */
export interface PreparedRows {
  /** `osv_advisories` rows without `vulnerability_id`. */
  advisories: string;
  affected: string;
}

export function prepareRows(items: Iterable<IncomingAdvisory>): PreparedRows {
  const advisories: object[] = [];
  const affected: object[] = [];
  for (const item of items) {
    advisories.push(advisoryRow(item));
    const withdrawn = item.advisory.withdrawn !== null;
    item.advisory.affected.forEach((entry, ordinal) => {
      affected.push({
        advisory_id: item.advisory.id,
        ordinal,
        ecosystem: entry.ecosystem ?? entry.osvEcosystem,
        osv_ecosystem: entry.osvEcosystem,
        name: entry.name,
        osv_name: entry.rawName,
        ranges: entry.ranges,
        versions: entry.versions,
        fixed_versions: fixedVersionsOf(entry),
        withdrawn,
      });
    });
  }
  return { advisories: JSON.stringify(advisories), affected: JSON.stringify(affected) };
}

/**
 * The prepared advisory rows of `ids`, each with its group, as a relation (`x`, the group in
 * `g.vulnerability_id`) with the table's column types.
 */
const advisoryRecordset = (prepared: PreparedRows, ids: string[], groups: string[]) => sql`
  jsonb_to_recordset(${prepared.advisories}::jsonb) AS x(
    id text, modified_at timestamptz, published_at timestamptz,
    withdrawn_at timestamptz, summary text, details text, severity_rating text,
    severity_score numeric, severity_vector text, severity_type text, refs jsonb, source text)
  JOIN unnest(${ids}::text[], ${groups}::uuid[]) AS g(id, vulnerability_id) ON g.id = x.id`;

/** A data-modifying statement, run with others by `executeTogether`. */
export type WriteStatement = RawBuilder<unknown>;

/**
 * Runs the statements as one (data-modifying WITH queries): one round trip, so the server does
 * the batch's bulk writes in one go while Node is free (the importer's caller reads the next
 * records meanwhile: import.ts). They see one snapshot, so none may touch rows another of them
 * writes (deletes of replaced rows run before, on their own).
 */
export async function executeTogether(
  db: Kysely<DB>,
  statements: readonly WriteStatement[],
): Promise<void> {
  if (statements.length === 0) return;
  const parts = statements.map((statement, i) => sql`${sql.raw(`w${i}`)} AS (${statement})`);
  await sql`WITH ${sql.join(parts, sql`, `)} SELECT 1`.execute(db);
}

/**
 * The writes of the changed advisories, each pointing at its group's vulnerability: those never
 * stored (not in `storedIds`) with a plain INSERT, the others with an UPDATE. The batch's
 * transaction holds the store's write lock (store.ts), so no other writer adds an id between
 * the lookup that found these ids absent and this INSERT.
 */
export function advisoryRowStatements(
  prepared: PreparedRows,
  changed: readonly IncomingAdvisory[],
  vulnerabilityOf: ReadonlyMap<string, string>,
  storedIds: ReadonlySet<string>,
): WriteStatement[] {
  const fresh: string[] = [];
  const replaced: string[] = [];
  for (const item of changed)
    (storedIds.has(item.advisory.id) ? replaced : fresh).push(item.advisory.id);
  const groupsOf = (ids: string[]) => ids.map((id) => vulnerabilityOf.get(id) as string);
  const statements: WriteStatement[] = [];
  if (fresh.length > 0) {
    statements.push(sql`
      INSERT INTO osv_advisories (id, vulnerability_id, modified_at, published_at, withdrawn_at,
        summary, details, severity_rating, severity_score, severity_vector, severity_type, refs,
        source)
      SELECT x.id, g.vulnerability_id, x.modified_at, x.published_at, x.withdrawn_at, x.summary,
        x.details, x.severity_rating, x.severity_score, x.severity_vector, x.severity_type,
        x.refs, x.source
      FROM ${advisoryRecordset(prepared, fresh, groupsOf(fresh))}`);
  }
  if (replaced.length > 0) {
    statements.push(sql`
      UPDATE osv_advisories a SET
        vulnerability_id = g.vulnerability_id,
        modified_at = x.modified_at,
        published_at = x.published_at,
        withdrawn_at = x.withdrawn_at,
        summary = x.summary,
        details = x.details,
        severity_rating = x.severity_rating,
        severity_score = x.severity_score,
        severity_vector = x.severity_vector,
        severity_type = x.severity_type,
        refs = x.refs,
        source = x.source,
        updated_at = now()
      FROM ${advisoryRecordset(prepared, replaced, groupsOf(replaced))}
      WHERE a.id = x.id`);
  }
  return statements;
}

/** Deletes the aliases and affected packages of advisories already stored (`replacedIds`). */
export async function deleteReplacedRows(
  db: Kysely<DB>,
  replacedIds: readonly string[],
): Promise<void> {
  for (const part of chunks(replacedIds, 2000)) {
    await db.deleteFrom('osv_advisory_aliases').where('advisory_id', '=', anyOf(part)).execute();
    await db.deleteFrom('osv_affected').where('advisory_id', '=', anyOf(part)).execute();
  }
}

/**
 * The inserts of the changed advisories' aliases and affected packages (after
 * `deleteReplacedRows`); notes the packages named.
 */
export function aliasAndAffectedStatements(
  prepared: PreparedRows,
  changed: readonly IncomingAdvisory[],
  packages: Map<string, PackageKey>,
): WriteStatement[] {
  const statements: WriteStatement[] = [];
  const aliasIds: string[] = [];
  const aliases: string[] = [];
  const changedIds: string[] = [];
  let affectedCount = 0;
  for (const item of changed) {
    changedIds.push(item.advisory.id);
    for (const alias of new Set(item.advisory.aliases)) {
      if (alias === item.advisory.id) continue;
      aliasIds.push(item.advisory.id);
      aliases.push(alias);
    }
    for (const affected of item.advisory.affected) {
      const ecosystem = affected.ecosystem ?? affected.osvEcosystem;
      packages.set(keyOf({ ecosystem, name: affected.name }), { ecosystem, name: affected.name });
      affectedCount++;
    }
  }
  if (aliases.length > 0) {
    statements.push(sql`
      INSERT INTO osv_advisory_aliases (advisory_id, alias)
      SELECT * FROM unnest(${aliasIds}::text[], ${aliases}::text[])`);
  }
  if (affectedCount > 0) {
    statements.push(sql`
      INSERT INTO osv_affected (advisory_id, ordinal, ecosystem, osv_ecosystem, name, osv_name,
        ranges, versions, fixed_versions, withdrawn)
      SELECT x.advisory_id, x.ordinal, x.ecosystem, x.osv_ecosystem, x.name, x.osv_name, x.ranges,
        x.versions, x.fixed_versions, x.withdrawn
      FROM jsonb_to_recordset(${prepared.affected}::jsonb) AS x(
        advisory_id text, ordinal integer, ecosystem text, osv_ecosystem text, name text,
        osv_name text, ranges jsonb, versions text[], fixed_versions text[], withdrawn boolean)
      WHERE x.advisory_id = any(${changedIds}::text[])`);
  }
  return statements;
}
