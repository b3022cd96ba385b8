import pg from 'pg';

/** Who answered a replica-routed read (counted for tests, benches and the docs' figures). */
export type ReadSource = 'replica' | 'primary-behind' | 'primary-skipped' | 'primary-unreachable';

/**
 * The read replica (DATABASE_READ_URL, docs/scaling.md#read-replica). A read routed here is
 * served by the replica only if the replica has replayed at least up to `minLsn`, the primary's
 * WAL position read when the request authenticated: every transaction committed before the
 * request began (the caller's own writes, through any process) is then visible, so the read is
 * never staler than the primary was at its start. Otherwise the primary answers.
 */
export interface ReadReplica {
  /**
   * A replica connection scoped to `tenantId` (session scope, role driftwatch_app, exactly as a
   * read session on the primary), or null when the replica is behind `minLsn`, unreachable, or
   * being skipped; the caller then reads the primary.
   */
  scopedClient(tenantId: string, minLsn: string): Promise<pg.PoolClient | null>;
  /** How many routed reads each source served since start. */
  readonly served: Record<ReadSource, number>;
  close(): Promise<void>;
}

export interface ReadReplicaOptions {
  url: string;
  poolSize: number;
  /** Behind (or unreachable) for longer than this: not asked for as long. */
  maxLagMs: number;
  /** A replica that does not accept a connection within this is treated as unreachable. */
  connectTimeoutMs: number;
}

// Scope and freshness in one round trip. On a server not in recovery (the URL names a primary)
// its own position counts, so such a setup is merely useless, never stale.
const SCOPE_AND_CHECK = `SELECT set_config('app.tenant_id', $1, false),
  set_config('role', 'driftwatch_app', false),
  (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END)
    >= $2::pg_lsn AS fresh`;

export function openReadReplica(options: ReadReplicaOptions): ReadReplica {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    application_name: 'driftwatch-replica',
    connectionTimeoutMillis: options.connectTimeoutMs,
  });
  // A replica going away must not crash the process: the next read falls back to the primary.
  pool.on('error', () => {});
  const served: Record<ReadSource, number> = {
    replica: 0,
    'primary-behind': 0,
    'primary-skipped': 0,
    'primary-unreachable': 0,
  };
  let skipUntil = 0;
  let troubleSince: number | null = null;

  // Trouble that lasts longer than the bound turns into skipping for as long, so a replica far
  // behind or down costs the primary's reads no extra round trip or connect timeout.
  const trouble = (source: ReadSource) => {
    served[source]++;
    const now = Date.now();
    troubleSince ??= now;
    if (now - troubleSince >= options.maxLagMs) {
      skipUntil = now + Math.max(options.maxLagMs, 250);
      troubleSince = null;
    }
    return null;
  };

  return {
    served,
    scopedClient: async (tenantId, minLsn) => {
      if (Date.now() < skipUntil) {
        served['primary-skipped']++;
        return null;
      }
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch {
        return trouble('primary-unreachable');
      }
      try {
        const result = await client.query<{ fresh: boolean | null }>({
          name: 'dw_replica_scope',
          text: SCOPE_AND_CHECK,
          values: [tenantId, minLsn],
        });
        if (result.rows[0]?.fresh !== true) {
          client.release();
          return trouble('primary-behind');
        }
      } catch (error) {
        client.release(error instanceof Error ? error : true);
        return trouble('primary-unreachable');
      }
      troubleSince = null;
      served.replica++;
      return client;
    },
    close: async () => {
      if (!pool.ending) await pool.end();
    },
  };
}
