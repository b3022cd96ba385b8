import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { type EmbeddedServer, startEmbeddedServer } from './embedded';
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
  close: () => Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://...`; null starts the embedded database. */
  url: string | null;
  /** Embedded data directory; null keeps the embedded database in memory (tests). */
  dataDir: string | null;
  poolSize: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let embedded: EmbeddedServer | null = null;
  let poolConfig: pg.PoolConfig;
  if (options.url) {
    poolConfig = { connectionString: options.url, max: options.poolSize };
  } else {
    embedded = await startEmbeddedServer(options.dataDir);
    poolConfig = {
      host: embedded.socketDir,
      port: 5432,
      user: 'postgres',
      database: 'postgres',
      max: options.poolSize,
    };
  }
  const pool = new pg.Pool({
    ...poolConfig,
    application_name: 'driftwatch',
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const readPool = embedded
    ? null
    : new pg.Pool({
        ...poolConfig,
        application_name: 'driftwatch-read',
        connectionTimeoutMillis: 10_000,
      });
  readPool?.on('error', () => {});
  const system = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    engine: embedded ? 'embedded' : 'postgres',
    pool,
    system,
    readPool,
    close: async () => {
      await system.destroy();
      await readPool?.end();
      await embedded?.stop();
    },
  };
}
