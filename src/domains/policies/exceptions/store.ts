import { type Kysely, type Selectable, sql } from 'kysely';
import { type TakeSkip, type TakeSkipPage, takeSkipPage } from '../../../db/paging';
import type { DB } from '../../../db/schema';
import type { ExceptionStatus, PolicyExceptionTable } from '../tables';

export type ExceptionRow = Selectable<PolicyExceptionTable>;

/** What an exception covers, for the coverage check (exceptions.ts). */
export type CoveringException = Pick<
  ExceptionRow,
  'id' | 'policy_id' | 'violation_id' | 'scope' | 'repository_id' | 'package_id' | 'expires_at'
>;

export async function insertException(
  db: Kysely<DB>,
  values: Omit<ExceptionRow, 'tenant_id' | 'status' | 'created_at' | 'expired_at'>,
): Promise<ExceptionRow> {
  return db.insertInto('policy_exceptions').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Active, unexpired exceptions of these policies. */
export async function activeExceptions(
  db: Kysely<DB>,
  policyIds: readonly string[],
  now: Date,
): Promise<CoveringException[]> {
  if (policyIds.length === 0) return [];
  return db
    .selectFrom('policy_exceptions')
    .select([
      'id',
      'policy_id',
      'violation_id',
      'scope',
      'repository_id',
      'package_id',
      'expires_at',
    ])
    .where('status', '=', 'active')
    .where('expires_at', '>', now)
    .where('policy_id', 'in', policyIds)
    .orderBy('expires_at', 'desc')
    .execute();
}

export interface ExceptionFilter {
  policyId?: string;
  packageId?: string;
  status?: ExceptionStatus;
}

function filtered(db: Kysely<DB>, filter: ExceptionFilter) {
  let query = db.selectFrom('policy_exceptions');
  if (filter.policyId) query = query.where('policy_id', '=', filter.policyId);
  if (filter.packageId) query = query.where('package_id', '=', filter.packageId);
  if (filter.status) query = query.where('status', '=', filter.status);
  return query;
}

export async function listExceptions(
  db: Kysely<DB>,
  filter: ExceptionFilter,
  page: TakeSkip,
): Promise<TakeSkipPage<ExceptionRow>> {
  return takeSkipPage(
    filtered(db, filter),
    (query) => query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    page,
  );
}

export async function deleteException(
  db: Kysely<DB>,
  id: string,
): Promise<ExceptionRow | undefined> {
  return db.deleteFrom('policy_exceptions').where('id', '=', id).returningAll().executeTakeFirst();
}

/** Marks the tenant's active exceptions past their expiry as expired; returns them. */
export async function expireExceptions(db: Kysely<DB>): Promise<ExceptionRow[]> {
  return db
    .updateTable('policy_exceptions')
    .set({ status: 'expired', expired_at: sql<Date>`now()` })
    .where('status', '=', 'active')
    .where('expires_at', '<=', sql<Date>`now()`)
    .returningAll()
    .execute();
}

/** Tenants with an active exception past its expiry (system connection, for the schedule). */
export async function tenantsWithExpiredExceptions(system: Kysely<DB>): Promise<string[]> {
  const rows = await system
    .selectFrom('policy_exceptions')
    .select('tenant_id')
    .distinct()
    .where('status', '=', 'active')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
  return rows.map((row) => row.tenant_id);
}
