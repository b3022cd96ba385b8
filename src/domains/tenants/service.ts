import { sql } from 'kysely';
import type { Plan } from '../../core/plans';
import type { Database } from '../../db/connection';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import { issueOwnerToken } from '../api-tokens/service';

export interface CreatedTenant {
  tenantId: string;
  name: string;
  plan: Plan;
  expiresAt: Date | null;
  ownerToken: string;
  ownerTokenId: string;
}

/**
 * Creates a tenant and its first owner token. The tenant row is written by the system connection
 * (it does not exist yet to scope to); the token inside the new tenant's own scope.
 */
export async function createTenantWithOwner(
  database: Database,
  options: { name: string; plan: Plan; demo?: boolean; expiresAt?: Date | null },
): Promise<CreatedTenant> {
  const tenantId = newId();
  const expiresAt = options.expiresAt ?? null;
  await database.system
    .insertInto('tenants')
    .values({
      id: tenantId,
      name: options.name,
      plan: options.plan,
      is_demo: options.demo ?? false,
      expires_at: expiresAt,
    })
    .execute();
  try {
    const issued = await withTenant(database, tenantId, (db) =>
      issueOwnerToken(db, `${options.name} owner`, expiresAt),
    );
    return {
      tenantId,
      name: options.name,
      plan: options.plan,
      expiresAt,
      ownerToken: issued.rawSecret,
      ownerTokenId: issued.row.id,
    };
  } catch (error) {
    await database.system.deleteFrom('tenants').where('id', '=', tenantId).execute();
    throw error;
  }
}

export async function countTenants(database: Database): Promise<number> {
  const row = await database.system
    .selectFrom('tenants')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes demo tenants past their expiry; their data goes with them (ON DELETE CASCADE). */
export async function purgeExpiredDemoTenants(database: Database): Promise<number> {
  const deleted = await database.system
    .deleteFrom('tenants')
    .where('is_demo', '=', true)
    .where('expires_at', '<', sql<Date>`now()`)
    .returning('id')
    .execute();
  return deleted.length;
}
