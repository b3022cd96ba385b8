import { type Kysely, type Selectable, sql } from 'kysely';
import { type TakeSkip, type TakeSkipPage, takeSkipPage } from '../../../db/paging';
import type { DB } from '../../../db/schema';
import type { PolicySeverity, PolicyViolationTable, ViolationStatus } from '../tables';

export type ViolationRow = Selectable<PolicyViolationTable> & {
  policy_name: string;
  /** Where the repository's current scan declares the dependency (first file, direct first). */
  file: string | null;
  line: number | null;
};

/** The declaration the facts name first (facts/store.ts orders direct first, then by file). */
const declaration = (column: 'file' | 'line') =>
  sql.raw(`(SELECT d.${column} FROM repository_dependencies d
    WHERE d.tenant_id = v.tenant_id AND d.repository_id = v.repository_id
      AND d.package_id = v.package_id AND coalesce(d.version, '') = v.version
    ORDER BY d.direct DESC, d.file, d.line NULLS LAST LIMIT 1)`);

export interface ViolationFilter {
  policyId?: string;
  repositoryId?: string;
  packageId?: string;
  severity?: PolicySeverity;
  status?: ViolationStatus;
}

function filtered(db: Kysely<DB>, filter: ViolationFilter) {
  let query = db
    .selectFrom('policy_violations as v')
    .innerJoin('policies as p', 'p.id', 'v.policy_id');
  if (filter.policyId) query = query.where('v.policy_id', '=', filter.policyId);
  if (filter.repositoryId) query = query.where('v.repository_id', '=', filter.repositoryId);
  if (filter.packageId) query = query.where('v.package_id', '=', filter.packageId);
  if (filter.severity) query = query.where('v.severity', '=', filter.severity);
  if (filter.status) query = query.where('v.status', '=', filter.status);
  return query;
}

export async function listViolations(
  db: Kysely<DB>,
  filter: ViolationFilter,
  page: TakeSkip,
): Promise<TakeSkipPage<ViolationRow>> {
  return takeSkipPage(
    filtered(db, filter),
    (query) =>
      query
        .selectAll('v')
        .select('p.name as policy_name')
        .select([
          sql<string | null>`${declaration('file')}`.as('file'),
          sql<number | null>`${declaration('line')}`.as('line'),
        ])
        .orderBy('v.detected_at', 'desc')
        .orderBy('v.id', 'desc'),
    page,
  );
}

export async function findViolation(db: Kysely<DB>, id: string): Promise<ViolationRow | undefined> {
  return filtered(db, {})
    .selectAll('v')
    .select('p.name as policy_name')
    .select([
      sql<string | null>`${declaration('file')}`.as('file'),
      sql<number | null>`${declaration('line')}`.as('line'),
    ])
    .where('v.id', '=', id)
    .executeTakeFirst();
}

export async function lockViolation(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('policy_violations')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** A person's triage: status, reason, who and when. */
export async function setTriage(
  db: Kysely<DB>,
  id: string,
  change: { status: ViolationStatus; reason: string | null; actorTokenId: string },
): Promise<void> {
  await db
    .updateTable('policy_violations')
    .set({
      status: change.status,
      status_reason: change.reason,
      status_changed_at: sql<Date>`now()`,
      status_changed_by_token_id: change.actorTokenId,
    })
    .where('id', '=', id)
    .execute();
}

/** A system move of several violations (evaluation, exceptions): one statement. */
export interface SystemUpdate {
  id: string;
  status: ViolationStatus;
  /** null keeps the stored value (and its digest). */
  facts: Record<string, unknown> | null;
  factsDigest?: string | null;
  severity: string | null;
  action: string | null;
  policyVersion: number | null;
  /** undefined keeps the stored value; null clears it. */
  exceptionId?: string | null;
}

export async function applySystemUpdates(db: Kysely<DB>, updates: SystemUpdate[]): Promise<void> {
  for (let start = 0; start < updates.length; start += 1000) {
    const chunk = updates.slice(start, start + 1000).map((u) => ({
      id: u.id,
      status: u.status,
      facts: u.facts,
      facts_digest: u.factsDigest ?? null,
      severity: u.severity,
      action: u.action,
      policy_version: u.policyVersion,
      keep_exception: u.exceptionId === undefined,
      exception_id: u.exceptionId ?? null,
    }));
    await sql`
      UPDATE policy_violations v SET
        status = x.status,
        facts = coalesce(x.facts, v.facts),
        facts_digest = CASE WHEN x.facts IS NULL THEN v.facts_digest ELSE x.facts_digest END,
        severity = coalesce(x.severity, v.severity),
        action = coalesce(x.action, v.action),
        policy_version = coalesce(x.policy_version, v.policy_version),
        exception_id = CASE WHEN x.keep_exception THEN v.exception_id ELSE x.exception_id END,
        last_evaluated_at = CASE WHEN x.facts IS NULL THEN v.last_evaluated_at ELSE now() END,
        resolved_at = CASE WHEN x.status <> 'resolved' THEN NULL
          WHEN v.status = 'resolved' THEN v.resolved_at ELSE now() END,
        reopened_count = v.reopened_count
          + CASE WHEN v.status = 'resolved' AND x.status <> 'resolved' THEN 1 ELSE 0 END,
        status_changed_at = CASE WHEN x.status <> v.status THEN now() ELSE v.status_changed_at END,
        status_changed_by_token_id = CASE WHEN x.status <> v.status THEN NULL
          ELSE v.status_changed_by_token_id END
      FROM jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) AS x(id uuid, status text,
        facts jsonb, facts_digest text, severity text, action text, policy_version integer, keep_exception boolean,
        exception_id uuid)
      WHERE v.id = x.id
        -- A rescan that changes nothing writes nothing (jsonb compares by value).
        AND (x.status <> v.status OR x.facts IS DISTINCT FROM v.facts
          OR x.severity IS DISTINCT FROM v.severity OR x.action IS DISTINCT FROM v.action
          OR x.policy_version IS DISTINCT FROM v.policy_version
          OR (NOT x.keep_exception AND x.exception_id IS DISTINCT FROM v.exception_id))`.execute(
      db,
    );
  }
}

/** A violation an evaluation opens (facts: the groups its condition read). */
export type NewViolation = Pick<
  Selectable<PolicyViolationTable>,
  | 'id'
  | 'policy_id'
  | 'repository_id'
  | 'package_id'
  | 'version'
  | 'ecosystem'
  | 'package_name'
  | 'purl'
  | 'severity'
  | 'action'
  | 'status'
  | 'exception_id'
  | 'facts'
  | 'policy_version'
> & { facts_digest: string };

const INSERT_CHUNK = 2000;

/**
 * Inserts violations with one statement per chunk and one JSON parameter (measured on the
 * embedded database: 5,589 violations through bound multi-row VALUES cost ~0.8 s, most of it
 * parameter handling and the full facts documents).
 */
export async function insertViolations(db: Kysely<DB>, rows: readonly NewViolation[]) {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = rows.slice(start, start + INSERT_CHUNK);
    await sql`
      INSERT INTO policy_violations (id, policy_id, repository_id, package_id, version, ecosystem,
        package_name, purl, severity, action, status, exception_id, facts, facts_digest,
        policy_version)
      SELECT x.id, x.policy_id, x.repository_id, x.package_id, x.version, x.ecosystem,
        x.package_name, x.purl, x.severity, x.action, x.status, x.exception_id, x.facts,
        x.facts_digest, x.policy_version
      FROM jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) AS x(id uuid, policy_id uuid,
        repository_id uuid, package_id uuid, version text, ecosystem text, package_name text,
        purl text, severity text, action text, status text, exception_id uuid, facts jsonb,
        facts_digest text, policy_version integer)`.execute(db);
  }
}
