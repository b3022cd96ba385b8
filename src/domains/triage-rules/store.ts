import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { type TakeSkip, type TakeSkipPage, takeSkipPage } from '../../db/paging';
import type { DB } from '../../db/schema';
import type { RuleStatus, TriageRuleTable } from './tables';

export type TriageRuleRow = Selectable<TriageRuleTable> & { exposure_count: number };

export interface RuleFilter {
  status?: RuleStatus;
  ecosystem?: string;
  active?: boolean;
}

const exposureCount = sql<number>`(SELECT count(*)::int FROM vulnerability_exposures e
  WHERE e.triage_rule_id = r.id)`.as('exposure_count');

function filtered(db: Kysely<DB>, filter: RuleFilter) {
  let query = db.selectFrom('triage_rules as r');
  if (filter.status) query = query.where('r.status', '=', filter.status);
  if (filter.ecosystem) query = query.where('r.ecosystem', '=', filter.ecosystem);
  if (filter.active !== undefined) {
    const active = sql<boolean>`(r.revoked_at IS NULL AND (r.expires_at IS NULL OR r.expires_at > now()))`;
    query = query.where(filter.active ? active : sql<boolean>`NOT ${active}`);
  }
  return query;
}

export async function listTriageRules(
  db: Kysely<DB>,
  filter: RuleFilter,
  page: TakeSkip,
): Promise<TakeSkipPage<TriageRuleRow>> {
  return takeSkipPage(
    filtered(db, filter),
    (query) =>
      query
        .selectAll('r')
        .select(exposureCount)
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc'),
    page,
  );
}

export async function findTriageRule(
  db: Kysely<DB>,
  id: string,
): Promise<TriageRuleRow | undefined> {
  return db
    .selectFrom('triage_rules as r')
    .selectAll('r')
    .select(exposureCount)
    .where('r.id', '=', id)
    .executeTakeFirst();
}

export async function insertTriageRule(
  db: Kysely<DB>,
  values: Omit<Insertable<TriageRuleTable>, 'tenant_id'>,
): Promise<void> {
  await db.insertInto('triage_rules').values(values).execute();
}

/** Marks a live rule revoked; false when it is unknown or already revoked. */
export async function markRevoked(
  db: Kysely<DB>,
  id: string,
  tokenId: string,
): Promise<{ id: string; status: RuleStatus } | undefined> {
  return db
    .updateTable('triage_rules')
    .set({ revoked_at: sql<Date>`now()`, revoked_by_token_id: tokenId })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning(['id', 'status'])
    .executeTakeFirst();
}

/** The tenant's repository ids among `ids` (tenant-scoped: another tenant's are not found). */
export async function knownRepositories(db: Kysely<DB>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('repositories').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

/** The canonical identifier of a vulnerability given by its UUID (merged ones followed). */
export async function canonicalIdOf(db: Kysely<DB>, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('vulnerabilities as v')
    .leftJoin('vulnerabilities as m', 'm.id', 'v.merged_into')
    .select(['v.canonical_id', 'm.canonical_id as merged_canonical'])
    .where('v.id', '=', id)
    .executeTakeFirst();
  return row ? (row.merged_canonical ?? row.canonical_id) : undefined;
}
