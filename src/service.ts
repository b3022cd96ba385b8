import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from './app';
import { EVENT_SUBSCRIPTIONS, jobDefinitions } from './background-jobs';
import type { Config, ServiceRole } from './config';
import { type Database, openDatabase } from './db/connection';
import { migrate } from './db/migrate';
import { createTokenUsageTracker } from './domains/api-tokens/usage-tracker';
import { SWEEP_STALE_SCANS_JOB } from './domains/scans/worker';
import { readBuildInfo, readCliVersion } from './domains/system/build-info';
import { type CreatedTenant, countTenants, createTenantWithOwner } from './domains/tenants/service';
import { createRateLimitStore } from './http/rate-limit';
import { relayOutbox } from './jobs/outbox';
import { createJobQueue, type JobQueue } from './jobs/queue';
import { createSecretBox, resolveMasterKey } from './security/secret-box';

export interface RunningService {
  database: Database;
  app: FastifyInstance | null;
  jobs: JobQueue;
  address: string | null;
  /** Set on the first embedded start with an empty database. */
  bootstrap: CreatedTenant | null;
  stop: () => Promise<void>;
}

/** Opens the database (embedded or PostgreSQL) and applies migrations. */
export async function openServiceDatabase(config: Config): Promise<Database> {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    // The embedded server runs each protocol message of each connection in arrival order, so
    // two connections' extended-protocol queries interleave (Parse A, Parse B, Bind A → "bind
    // message supplies 3 parameters, but prepared statement requires 2", an unhandled rejection
    // inside pg-boss). It is one session anyway: one connection loses no parallelism.
    poolSize: config.databaseUrl ? config.databasePoolSize : 1,
  });
  try {
    await migrate(database.pool);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * Starts the service: the HTTP API and/or the job workers in this process (`role`), wired from
 * the validated configuration.
 */
export async function startService(
  config: Config,
  role: ServiceRole = config.role,
): Promise<RunningService> {
  const database = await openServiceDatabase(config);
  let bootstrap: CreatedTenant | null = null;
  if (database.engine === 'embedded' && (await countTenants(database)) === 0) {
    bootstrap = await createTenantWithOwner(database, { name: 'Default', plan: 'enterprise' });
  }
  const { key } = resolveMasterKey(config.masterKey, config.dataDir);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { enableOfflineQueue: false, lazyConnect: false })
    : null;
  redis?.on('error', () => {});
  const tokenUsage = createTokenUsageTracker(database);
  tokenUsage.start(config.tokenUsageFlushSeconds);

  const secretBox = createSecretBox(key);
  const jobs = await createJobQueue(database);
  const log = (message: string, details?: object) => app?.log.info(details ?? {}, message);
  for (const definition of jobDefinitions({ database, config, secretBox, log })) {
    jobs.register(definition);
  }
  await jobs.prepare();
  if (role !== 'api') {
    await jobs.work();
    // Scans left running by a process that died are recovered now, not at the next minute.
    await jobs.send(SWEEP_STALE_SCANS_JOB, { tenantId: null, correlationId: null, data: {} });
  }
  // Every process relays committed outbox rows to pg-boss (SKIP LOCKED makes that safe).
  const relay = setInterval(() => {
    relayOutbox(database, EVENT_SUBSCRIPTIONS, (name, envelope, db) =>
      jobs.send(name, envelope, { db }),
    ).catch((error) => log('outbox relay failed', { err: error }));
  }, 500);
  relay.unref();

  let app: FastifyInstance | null = null;
  let address: string | null = null;
  if (role !== 'worker') {
    app = await buildApp({
      config,
      database,
      secretBox,
      rateLimits: createRateLimitStore(redis),
      tokenUsage,
      buildInfo: readBuildInfo(config.environment),
      cliVersion: readCliVersion(),
    });
    address = await app.listen({ port: config.port, host: config.host });
  }

  let stopped = false;
  return {
    database,
    app,
    jobs,
    address,
    bootstrap,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      clearInterval(relay);
      await app?.close();
      await jobs.stop().catch(() => {});
      await tokenUsage.stop();
      redis?.disconnect();
      await database.close();
    },
  };
}
