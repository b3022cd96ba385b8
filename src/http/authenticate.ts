import type pg from 'pg';
import { isPlan } from '../core/plans';
import type { Principal } from '../core/principal';
import { isRole } from '../core/roles';
import type { Database } from '../db/connection';
import {
  type IsolationLevel,
  kyselyOnClient,
  type TenantTransaction,
  tenantTransactionOn,
} from '../db/tenant-scope';

interface TokenRow {
  id: string;
  tenant_id: string;
  roles: string[];
  plan: string;
  usable: boolean;
  /** Replica mode only: the primary's WAL position when the token was checked. */
  lsn?: string;
}

/**
 * How a request's tenant scope is held: a transaction (every write, and reads that need a
 * stable snapshot), or — for plain reads on PostgreSQL — the session of a connection from the
 * reserved read pool, which saves the COMMIT round trip.
 */
export type ScopeMode =
  | { kind: 'transaction'; isolation: IsolationLevel }
  | { kind: 'session' }
  /** A session on the read replica when it is fresh enough, else on the primary (`replicaScope`). */
  | { kind: 'replica' };

const lookup = (
  hash: string,
  local: boolean,
  extra = '',
) => `SELECT r.id, r.tenant_id, r.roles, r.plan, r.usable,
  set_config('app.tenant_id', CASE WHEN r.usable THEN r.tenant_id::text ELSE '' END, ${local}),
  set_config('role', 'driftwatch_app', ${local})${extra}
FROM dw_lookup_token(${hash}) r`;

// Read sessions may start on a connection that still carries the previous request's scope: the
// lookup function runs as its owner regardless, and this statement overwrites the scope.
const SESSION_LOOKUP = lookup('$1', false);
// The token is always checked on the primary (a revocation counts at once, whatever the replica
// has replayed); the same statement reads the WAL position the replica must have reached.
const REPLICA_LOOKUP = lookup('$1', false, ', pg_current_wal_lsn()::text AS lsn');

/**
 * Resolves a bearer token and opens the request's tenant scope in one round trip: the lookup by
 * hash runs as the owner role (the tenant is not known yet) and, in the same statement, sets the
 * tenant and drops to driftwatch_app, so row-level security holds for everything after it. No
 * cache: a revoked token fails on its very next use, whichever process serves it.
 */
export async function openAuthenticatedScope(
  database: Database,
  secretHash: Buffer,
  mode: ScopeMode,
): Promise<{ principal: Principal; scope: TenantTransaction } | null> {
  const session = mode.kind !== 'transaction' && database.readPool !== null;
  const replica = mode.kind === 'replica' ? database.replica : null;
  const pool = session && database.readPool ? database.readPool : database.pool;
  const client: pg.PoolClient = await pool.connect();
  const end = session
    ? async () => client.release()
    : async () => {
        await client.query('ROLLBACK').catch(() => {});
        client.release();
      };
  let results: pg.QueryResult[];
  try {
    if (session) {
      // A named statement, parsed and planned once per connection (PostgreSQL only: PGlite
      // multiplexes one session, where named statements would collide).
      results = [
        await client.query(
          replica
            ? { name: 'dw_authenticate_lsn', text: REPLICA_LOOKUP, values: [secretHash] }
            : { name: 'dw_authenticate', text: SESSION_LOOKUP, values: [secretHash] },
        ),
      ];
    } else {
      const isolation = mode.kind === 'transaction' ? mode.isolation : 'read committed';
      const hashLiteral = `'\\x${secretHash.toString('hex')}'::bytea`;
      // BEGIN and the lookup travel together as one simple-protocol round trip.
      const sql = `BEGIN ISOLATION LEVEL ${isolation.toUpperCase()}; ${lookup(hashLiteral, true)}`;
      results = (await client.query(sql)) as unknown as pg.QueryResult[];
    }
  } catch (error) {
    if (session) client.release(error as Error);
    else await end();
    throw error;
  }
  const row = results[results.length - 1]?.rows[0] as TokenRow | undefined;
  if (!row?.usable || !isPlan(row.plan)) {
    await end();
    return null;
  }
  const principal: Principal = {
    tokenId: row.id,
    tenantId: row.tenant_id,
    roles: row.roles.filter(isRole),
    plan: row.plan,
  };
  if (replica && row.lsn) {
    // The primary's connection stays held (and scoped) until the replica has answered, so a
    // replica that is behind or down costs no second checkout on the primary.
    const onReplica = await replica.scopedClient(row.tenant_id, row.lsn);
    if (onReplica) {
      client.release();
      return { principal, scope: sessionScopeOn(onReplica, row.tenant_id) };
    }
  }
  const scope = session
    ? sessionScopeOn(client, row.tenant_id)
    : tenantTransactionOn(client, row.tenant_id);
  return { principal, scope };
}

/** A read scope held by a session: nothing to commit or roll back, only the client to return. */
function sessionScopeOn(client: pg.PoolClient, tenantId: string): TenantTransaction {
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    client.release();
  };
  return { tenantId, db: kyselyOnClient(client, true), commit: release, rollback: release };
}
