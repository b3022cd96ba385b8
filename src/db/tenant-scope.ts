import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { isUuid } from '../core/uuid';
import type { Database } from './connection';
import type { DB } from './schema';

export type IsolationLevel = 'read committed' | 'repeatable read';

/**
 * An open transaction scoped to one tenant: `app.tenant_id` is set and the role is
 * `driftwatch_app`, so row-level security refuses every other tenant's rows.
 */
export interface TenantTransaction {
  tenantId: string;
  db: Kysely<DB>;
  commit: () => Promise<void>;
  rollback: () => Promise<void>;
}

/** The SQL that turns an open transaction into a tenant-scoped one (tenantId must be a UUID). */
export function scopeStatement(tenantId: string): string {
  if (!isUuid(tenantId)) throw new Error('tenant id must be a UUID');
  // Inlined rather than bound so that BEGIN and the scope travel in one round trip.
  return `SELECT set_config('app.tenant_id', '${tenantId}', true), set_config('role', 'driftwatch_app', true)`;
}

// SQL text → statement name, shared by all connections so one text always has one name.
const statementNames = new Map<string, string>();
const MAX_NAMED_STATEMENTS = 5000;

function statementName(text: string): string | undefined {
  const known = statementNames.get(text);
  if (known || statementNames.size >= MAX_NAMED_STATEMENTS) return known;
  const name = `dw_${statementNames.size}`;
  statementNames.set(text, name);
  return name;
}

/**
 * A Kysely bound to one checked-out client, so every query runs inside its scope. With
 * `prepare` (PostgreSQL only: PGlite multiplexes one session, where names would collide), each
 * distinct SQL text becomes a named statement, parsed and planned once per connection; measured
 * 123 → 63 µs of server CPU for the 50-row token list.
 */
export function kyselyOnClient(client: pg.PoolClient, prepare = false): Kysely<DB> {
  const query = prepare
    ? (text: unknown, values?: unknown[]) => {
        if (typeof text !== 'string') return client.query(text as pg.QueryConfig);
        const name = statementName(text);
        return client.query(name ? { name, text, values } : { text, values });
      }
    : client.query.bind(client);
  const pinned = { connect: async () => ({ query, release: () => {} }) };
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: pinned as unknown as pg.Pool }) });
}

/** Wraps an already-begun, already-scoped client into a TenantTransaction that releases it once. */
export function tenantTransactionOn(client: pg.PoolClient, tenantId: string): TenantTransaction {
  let finished = false;
  const finish = async (statement: 'COMMIT' | 'ROLLBACK') => {
    if (finished) return;
    finished = true;
    try {
      await client.query(statement);
      client.release();
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  };
  return {
    tenantId,
    db: kyselyOnClient(client),
    commit: () => finish('COMMIT'),
    rollback: () => finish('ROLLBACK'),
  };
}

export async function beginTenantTransaction(
  database: Database,
  tenantId: string,
  isolation: IsolationLevel = 'read committed',
): Promise<TenantTransaction> {
  const statement = `BEGIN ISOLATION LEVEL ${isolation.toUpperCase()}; ${scopeStatement(tenantId)}`;
  const client = await database.pool.connect();
  try {
    await client.query(statement);
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  return tenantTransactionOn(client, tenantId);
}

/** Runs `work` in a tenant-scoped transaction: commits on success, rolls back on any error. */
export async function withTenant<T>(
  database: Database,
  tenantId: string,
  work: (db: Kysely<DB>) => Promise<T>,
  isolation: IsolationLevel = 'read committed',
): Promise<T> {
  const tx = await beginTenantTransaction(database, tenantId, isolation);
  try {
    const result = await work(tx.db);
    await tx.commit();
    return result;
  } catch (error) {
    await tx.rollback().catch(() => {});
    throw error;
  }
}
