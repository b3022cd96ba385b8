import { sql } from 'kysely';
import { Type } from 'typebox';
import { notFound } from '../../core/problem';
import type { Database } from '../../db/connection';
import { newId } from '../../db/ids';
import { defineJob, type PayloadOf } from '../../jobs/contract';
import { enqueue } from '../../jobs/outbox';
import { listTenantTables } from './catalogue';

// Batches commit one by one: a retry after a crash continues with what is left.
export const PURGE_TENANT = defineJob({
  name: 'tenants.purge',
  payload: Type.Object({ deletionId: Type.String() }),
  expireInSeconds: 3600,
  retryLimit: 10,
});

/** Rows deleted per statement (each its own transaction, so no lock is held for long). */
export const PURGE_BATCH_ROWS = 1000;

/** A tenant with at most this many rows is purged within the request (204). */
export const INLINE_PURGE_ROWS = 1000;

export type PurgeTenantJob = PayloadOf<typeof PURGE_TENANT>;

export type DeletionOutcome =
  | { kind: 'purged' }
  | { kind: 'accepted'; deletionId: string; requestedAt: Date };

/**
 * DELETE /api/v1/tenants/current: in one system transaction the tenant is marked, every token
 * revoked (the next request with any of them is a 401) and the deletion recorded; a tenant
 * already marked or gone is a 404. A small tenant is then purged at once (204); a larger one by
 * the purge job (202), which the same transaction enqueues so a marked tenant always has one.
 */
export async function requestTenantDeletion(
  database: Database,
  tenantId: string,
  tokenId: string,
): Promise<DeletionOutcome> {
  const small =
    (await countTenantRows(database, tenantId, INLINE_PURGE_ROWS + 1)) <= INLINE_PURGE_ROWS;
  const deletionId = newId();
  const requestedAt = await database.system.transaction().execute(async (trx) => {
    const marked = await trx
      .updateTable('tenants')
      .set({ deletion_requested_at: sql<Date>`now()` })
      .where('id', '=', tenantId)
      .where('deletion_requested_at', 'is', null)
      .returning('deletion_requested_at')
      .executeTakeFirst();
    if (!marked?.deletion_requested_at) throw notFound('The tenant');
    await trx
      .updateTable('api_tokens')
      .set({ revoked_at: sql<Date>`now()` })
      .where('tenant_id', '=', tenantId)
      .where('revoked_at', 'is', null)
      .execute();
    await trx
      .insertInto('tenant_deletions')
      .values({ id: deletionId, deleted_tenant_id: tenantId, requested_by_token_id: tokenId })
      .execute();
    if (!small) {
      await enqueue(trx, PURGE_TENANT, { tenantId, data: { deletionId } });
    }
    return marked.deletion_requested_at;
  });
  if (!small) return { kind: 'accepted', deletionId, requestedAt };
  await purgeTenant(database, tenantId, deletionId);
  return { kind: 'purged' };
}

/** The tenant's rows across every tenant table, counting no further than `cap`. */
export async function countTenantRows(
  database: Database,
  tenantId: string,
  cap: number,
): Promise<number> {
  let total = 0;
  for (const table of await listTenantTables(database.system)) {
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM (
        SELECT 1 FROM ${sql.table(table.name)} WHERE tenant_id = ${tenantId}::uuid LIMIT ${cap - total}
      ) capped`.execute(database.system);
    total += Number(rows[0]?.n ?? 0);
    if (total >= cap) return total;
  }
  return total;
}

/**
 * Removes every row of the tenant, table by table in catalogue order (referencing tables first),
 * in batches of PURGE_BATCH_ROWS, then the tenant itself, and records the count. Safe to run
 * again after a crash: it continues with whatever is left.
 */
export async function purgeTenant(
  database: Database,
  tenantId: string,
  deletionId: string,
): Promise<number> {
  let deleted = 0;
  for (const table of await listTenantTables(database.system)) {
    for (;;) {
      // (tableoid, ctid) names a row even in a partitioned table.
      const result = await sql`DELETE FROM ${sql.table(table.name)}
        WHERE (tableoid, ctid) IN (
          SELECT tableoid, ctid FROM ${sql.table(table.name)}
          WHERE tenant_id = ${tenantId}::uuid LIMIT ${PURGE_BATCH_ROWS})`.execute(database.system);
      const count = Number(result.numAffectedRows ?? 0n);
      deleted += count;
      if (count < PURGE_BATCH_ROWS) break;
    }
  }
  const tenant = await database.system
    .deleteFrom('tenants')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  deleted += Number(tenant.numDeletedRows);
  await database.system
    .updateTable('tenant_deletions')
    .set({
      completed_at: sql<Date>`now()`,
      rows_deleted: sql<string>`rows_deleted + ${deleted}`,
    })
    .where('id', '=', deletionId)
    .execute();
  return deleted;
}
