import type pg from 'pg';
import type { Database } from '../db/connection';
import {
  type IsolationLevel,
  type TenantTransaction,
  tenantTransactionOn,
} from '../db/tenant-scope';
import { isPlan } from '../domains/tenants/plans';
import type { Principal } from './request-context';
import { isRole } from './roles';

interface TokenRow {
  id: string;
  tenant_id: string;
  roles: string[];
  plan: string;
  usable: boolean;
}

/**
 * Resolves a bearer token and opens the request's tenant transaction in one round trip:
 * BEGIN, the lookup by hash (as the owner role, since the tenant is not known yet), then the
 * tenant scope taken from the same row. No cache: a revoked token fails on its very next use,
 * whichever process serves it.
 */
export async function openAuthenticatedScope(
  database: Database,
  secretHash: Buffer,
  isolation: IsolationLevel,
): Promise<{ principal: Principal; scope: TenantTransaction } | null> {
  const hashLiteral = `'\\x${secretHash.toString('hex')}'::bytea`;
  const sql = `BEGIN ISOLATION LEVEL ${isolation.toUpperCase()};
SELECT t.id, t.tenant_id, t.roles, n.plan,
  (t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
    AND (n.expires_at IS NULL OR n.expires_at > now())) AS usable
FROM api_tokens t JOIN tenants n ON n.id = t.tenant_id WHERE t.secret_hash = ${hashLiteral};
SELECT set_config('app.tenant_id', coalesce((SELECT tenant_id::text FROM api_tokens WHERE secret_hash = ${hashLiteral} AND revoked_at IS NULL), ''), true),
  set_config('role', 'driftwatch_app', true);`;
  const client: pg.PoolClient = await database.pool.connect();
  let results: pg.QueryResult[];
  try {
    results = (await client.query(sql)) as unknown as pg.QueryResult[];
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
    throw error;
  }
  const row = results[1]?.rows[0] as TokenRow | undefined;
  if (!row?.usable || !isPlan(row.plan)) {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
    return null;
  }
  const principal: Principal = {
    tokenId: row.id,
    tenantId: row.tenant_id,
    roles: row.roles.filter(isRole),
    plan: row.plan,
  };
  return { principal, scope: tenantTransactionOn(client, row.tenant_id) };
}
