import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { type EmbeddedServer, startEmbeddedServer } from './embedded';
import { openReadReplica, type ReadReplica } from './replica';
import type { DB } from './schema';

// timestamptz as Date, int8 (counts) as number: counts here never exceed 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

export type DatabaseEngine = 'embedded' | 'postgres';

export interface Database {
  engine: DatabaseEngine;
  pool: pg.Pool;
  /**
   * The system connection: runs as the owner role, outside any tenant scope. Only for work that
   * is not tenant data (token lookup by hash, migrations, tenant creation, cross-tenant jobs).
   * Tenant data goes through `withTenant` / the request scope.
   */
  system: Kysely<DB>;
  /**
   * PostgreSQL only: connections reserved for authenticated read requests, which scope the
   * session (not a transaction) and leave that scope behind when released. Nothing else may use
   * these connections: every checkout starts by resetting the role and tenant (see
   * src/http/authenticate.ts). Null in embedded mode, where PGlite multiplexes one session.
   */
  readPool: pg.Pool | null;
  /**
   * PostgreSQL with DATABASE_READ_URL only: the streaming replica that routes marked
   * `reads: 'replica'` read when it is fresh enough (src/db/replica.ts). Null: the primary.
   */
  replica: ReadReplica | null;
  /**
   * What job workers and the outbox relay use (docs/operations.md). PostgreSQL: a pool of its
   * own, so workers can never take the API's connections. Embedded: the one connection, but a
   * job keeps waiting for it (`patientPool`) instead of failing fast like a request.
   */
  jobs: Database;
  /**
   * Embedded only: a consistent copy of the whole data directory as a tarball, taken between
   * two queries (backups, docs/scaling.md#backups). Null on PostgreSQL (pg_dump).
   */
  snapshot: (() => Promise<Blob>) | null;
  close: () => Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://...`; null starts the embedded database. */
  url: string | null;
  /** Embedded data directory; null keeps the embedded database in memory (tests). */
  dataDir: string | null;
  /** In-memory embedded database only: start from this snapshot (`EmbeddedServer.snapshot`). */
  embeddedSnapshot?: Blob;
  poolSize: number;
  /**
   * PostgreSQL: connections of the job pool. The service passes its settings
   * (DATABASE_JOB_POOL_SIZE, DATABASE_ACQUIRE_TIMEOUT_MS); the defaults here serve tests and benches.
   */
  jobPoolSize?: number;
  /** How long a request waits for a free connection before `DatabaseBusyError` (tests: 10 s). */
  acquireTimeoutMs?: number;
  /** PostgreSQL only (ignored with the embedded database): the read replica's URL. */
  readUrl?: string | null;
  /** DATABASE_READ_MAX_LAG_MS (default 5000). */
  readMaxLagMs?: number;
}

/**
 * No connection became free in time: the pool is exhausted (a scan or a burst holds them all).
 * The HTTP layer answers 503 with Retry-After; nothing was sent to the database, so retrying is
 * always safe.
 */
export class DatabaseBusyError extends Error {
  readonly retryAfterSeconds = 1;
  constructor(readonly waitedMs: number) {
    super(`No database connection became free within ${waitedMs} ms.`);
    this.name = 'DatabaseBusyError';
  }
}

// pg-pool's own texts: waiting in its queue, and establishing a new connection, timed out.
const TIMEOUT_MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
]);

type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/** A pg.Pool whose connection timeouts are `DatabaseBusyError`s (also inside `pool.query`). */
class ServicePool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    const translate = (error: Error): Error =>
      TIMEOUT_MESSAGES.has(error.message)
        ? new DatabaseBusyError(this.options.connectionTimeoutMillis ?? 0)
        : error;
    if (callback) {
      super.connect((error, client, done) =>
        callback(error ? translate(error) : undefined, client, done),
      );
      return undefined;
    }
    return super.connect().catch((error: Error) => {
      throw translate(error);
    });
  }
}

const patientViews = new WeakSet<pg.Pool>();

/**
 * A view of `pool` whose checkouts do not give up at the first `DatabaseBusyError`: they queue
 * again behind the requests that came meanwhile, so background work yields to requests instead
 * of failing. After `maxWaitMs` in all (a checkout nested inside another on the one embedded
 * connection would otherwise wait forever) the error is passed on, as is any other error (the
 * pool was ended, the server is gone).
 */
export function patientPool(pool: pg.Pool, maxWaitMs = 120_000): pg.Pool {
  if (patientViews.has(pool)) return pool;
  const connect = async (): Promise<pg.PoolClient> => {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      try {
        return await pool.connect();
      } catch (error) {
        if (!(error instanceof DatabaseBusyError) || Date.now() >= deadline) throw error;
      }
    }
  };
  const query = async (...args: Parameters<pg.Pool['query']>) => {
    const client = await connect();
    try {
      const result = await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
      client.release();
      return result;
    } catch (error) {
      // As pg-pool does: a client whose query failed is not reused.
      client.release(error as Error);
      throw error;
    }
  };
  const view = new Proxy(pool, {
    get(target, property) {
      if (property === 'connect') {
        return (callback?: ConnectCallback) => {
          if (!callback) return connect();
          connect().then(
            (client) => callback(undefined, client, (release) => client.release(release as Error)),
            (error: Error) => callback(error, undefined, () => {}),
          );
          return undefined;
        };
      }
      if (property === 'query') return query;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  patientViews.add(view);
  return view;
}

function kyselyOn(pool: pg.Pool): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

/** PostgreSQL with DATABASE_READ_URL: the replica (ignored with the embedded database). */
function replicaOf(options: DatabaseOptions, acquireTimeoutMs: number): ReadReplica | null {
  if (!options.readUrl) return null;
  return openReadReplica({
    url: options.readUrl,
    poolSize: options.poolSize,
    maxLagMs: options.readMaxLagMs ?? 5000,
    // A replica that is down must not cost a read the whole acquire wait.
    connectTimeoutMs: Math.min(acquireTimeoutMs, 1000),
  });
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let embedded: EmbeddedServer | null = null;
  let poolConfig: pg.PoolConfig;
  if (options.url) {
    poolConfig = { connectionString: options.url };
  } else {
    embedded = await startEmbeddedServer(options.dataDir, options.embeddedSnapshot);
    poolConfig = { host: embedded.socketDir, port: 5432, user: 'postgres', database: 'postgres' };
  }
  const acquireTimeoutMs = options.acquireTimeoutMs ?? 10_000;
  const pool = new ServicePool({
    ...poolConfig,
    max: options.poolSize,
    application_name: 'driftwatch',
    connectionTimeoutMillis: acquireTimeoutMs,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const readPool = embedded
    ? null
    : new ServicePool({
        ...poolConfig,
        max: options.poolSize,
        application_name: 'driftwatch-read',
        connectionTimeoutMillis: acquireTimeoutMs,
      });
  readPool?.on('error', () => {});
  const replica = embedded ? null : replicaOf(options, acquireTimeoutMs);
  // PostgreSQL: jobs wait up to 30 s for their own pool, then fail and are retried by pg-boss
  // (a handler that nests checkouts cannot hang forever). Embedded: see `patientPool`.
  const jobPool = embedded
    ? patientPool(pool)
    : new ServicePool({
        ...poolConfig,
        max: options.jobPoolSize ?? 4,
        application_name: 'driftwatch-jobs',
        connectionTimeoutMillis: 30_000,
      });
  jobPool.on('error', () => {});
  const system = kyselyOn(pool);
  const jobSystem = embedded ? system : kyselyOn(jobPool);
  const engine = embedded ? 'embedded' : 'postgres';
  // Kysely ends its pool only once it has run a query through it: a database used through the
  // raw pool alone (migrations, tests) would keep its connections open after close.
  const endPool = async (toEnd: pg.Pool) => {
    if (!toEnd.ending) await toEnd.end();
  };
  const close = async () => {
    await system.destroy();
    await endPool(pool);
    await readPool?.end();
    await replica?.close();
    if (jobSystem !== system) {
      await jobSystem.destroy();
      await endPool(jobPool);
    }
    await embedded?.stop();
  };
  const server = embedded;
  const snapshot = server ? () => server.snapshot() : null;
  const jobs: Database = {
    engine,
    snapshot,
    pool: jobPool,
    system: jobSystem,
    readPool: null,
    replica: null,
    get jobs() {
      return jobs;
    },
    close,
  };
  return { engine, pool, system, readPool, replica, jobs, snapshot, close };
}
