import { type Kysely, type Selectable, sql } from 'kysely';
import { type TakeSkip, type TakeSkipPage, takeSkipPage } from '../../db/paging';
import type { DB } from '../../db/schema';
import type { PolicyAction, PolicyScope, PolicySeverity, PolicyTable } from './tables';

export type PolicyRow = Selectable<PolicyTable>;

export interface PolicyValues {
  name: string;
  description: string;
  condition: string;
  severity: PolicySeverity;
  action: PolicyAction;
  enabled: boolean;
  scope: PolicyScope;
}

export async function insertPolicy(
  db: Kysely<DB>,
  id: string,
  values: PolicyValues,
  actorTokenId: string,
): Promise<PolicyRow> {
  return db
    .insertInto('policies')
    .values({
      id,
      ...values,
      scope: JSON.stringify(values.scope),
      version: 1,
      created_by_token_id: actorTokenId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findPolicy(db: Kysely<DB>, id: string, lock = false) {
  let query = db.selectFrom('policies').selectAll().where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function listPolicies(
  db: Kysely<DB>,
  page: TakeSkip,
): Promise<TakeSkipPage<PolicyRow>> {
  return takeSkipPage(
    db.selectFrom('policies'),
    (query) => query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    page,
  );
}

/** Every policy of the tenant (evaluation). */
export async function allPolicies(db: Kysely<DB>): Promise<PolicyRow[]> {
  return db.selectFrom('policies').selectAll().orderBy('id').execute();
}

/** The tenant's enabled policies (IDE verdicts: disabled ones are never evaluated). */
export async function enabledPolicies(db: Kysely<DB>): Promise<PolicyRow[]> {
  return db.selectFrom('policies').selectAll().where('enabled', '=', true).orderBy('id').execute();
}

/** Which of `ids` are repositories of the tenant (the scope is RLS's: another tenant's are absent). */
export async function knownRepositoryIds(
  db: Kysely<DB>,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('repositories')
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Replaces the values and increments the version (compiled conditions are cached by it). */
export async function updatePolicy(
  db: Kysely<DB>,
  id: string,
  values: PolicyValues,
): Promise<PolicyRow> {
  return db
    .updateTable('policies')
    .set({
      ...values,
      scope: JSON.stringify(values.scope),
      version: sql<number>`version + 1`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deletePolicy(db: Kysely<DB>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('policies').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
