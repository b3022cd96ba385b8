import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from './app';
import { EVENT_SUBSCRIPTIONS, jobDefinitions, outboundDeliveries } from './background-jobs';
import type { Config, ServiceRole } from './config';
import { type Database, openDatabase } from './db/connection';
import { migrate } from './db/migrate';
import {
  createTokenUsageTracker,
  type TokenUsageTracker,
} from './domains/api-tokens/usage-tracker';
import {
  type DeliveryDispatcher,
  startDeliveryDispatcher,
} from './domains/outbound-deliveries/jobs';
import {
  type StaleScanSweeper,
  SWEEP_STALE_SCANS_JOB,
  startStaleScanSweeper,
} from './domains/scans/recovery';
import { readBuildInfo, readCliVersion } from './domains/system/build-info';
import { type CreatedTenant, countTenants, createTenantWithOwner } from './domains/tenants/service';
import { createRateLimitStore } from './http/rate-limit';
import { type OutboxRelay, startOutboxRelay } from './jobs/outbox';
import { createJobQueue, type JobQueue } from './jobs/queue';
import { readQueueStats } from './jobs/queue-stats';
import { createServiceLogger, type ServiceLogger } from './logger';
import { createMetrics, type Metrics } from './observability/metrics';
import { type MetricsServer, startMetricsServer } from './observability/metrics-server';
import { createFileRoots } from './security/outbound-guard-files';
import { createSecretBox, resolveMasterKey } from './security/secret-box';

export interface RunningService {
  database: Database;
  app: FastifyInstance | null;
  jobs: JobQueue;
  address: string | null;
  /** `http://host:port` of the metrics port (METRICS_PORT), or null. */
  metricsAddress: string | null;
  /** Set on the first embedded start with an empty database. */
  bootstrap: CreatedTenant | null;
  logger: ServiceLogger;
  /**
   * The orderly stop (docs/operations.md), bounded by SHUTDOWN_TIMEOUT_SECONDS: stop accepting
   * and drain requests, stop the outbox relay, stop and drain the job workers, flush token
   * usage, close the pools. Calling it again returns the same promise.
   */
  stop: () => Promise<void>;
}

export interface ServiceOptions {
  /** The process's logger (main installs its process handlers on it first). */
  logger?: ServiceLogger;
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
    jobPoolSize: config.databaseJobPoolSize,
    acquireTimeoutMs: config.databaseAcquireTimeoutMs,
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
  options: ServiceOptions = {},
): Promise<RunningService> {
  const logger = options.logger ?? createServiceLogger(config);
  await createFileRoots(config.scans);
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
  const metrics = watchedMetrics(database);
  let workers: 'none' | 'starting' | 'started' = role === 'api' ? 'none' : 'starting';
  let isStopping = false;

  const secretBox = createSecretBox(key);
  const jobs = await createJobQueue(database, {
    onError: (error) =>
      logger.error({ err: error, queue: error.queue, worker: error.worker }, 'job queue error'),
  });
  const log = (message: string, details?: object) => logger.info(details ?? {}, message);
  // Job handlers get the job pool (PostgreSQL: their own connections; docs/operations.md).
  const jobDeps = { database: database.jobs, config, secretBox, log, observe: metrics };
  for (const definition of jobDefinitions(jobDeps)) {
    jobs.register(definition);
  }
  await jobs.prepare();
  let sweeper: StaleScanSweeper | null = null;
  let dispatcher: DeliveryDispatcher | null = null;
  if (role !== 'api') {
    await jobs.work();
    workers = 'started';
    // Scans left running by a process that died are recovered now, not at the next minute.
    await jobs.send(SWEEP_STALE_SCANS_JOB, { tenantId: null, correlationId: null, data: {} });
    // And then at an interval derived from the stale threshold (docs/repositories-and-scans.md).
    sweeper = startStaleScanSweeper(jobDeps);
    // Webhook retries fall due at their own times (docs/integrations.md#retries).
    dispatcher = startDeliveryDispatcher(outboundDeliveries(jobDeps));
  }
  // Every process relays committed outbox rows to pg-boss (SKIP LOCKED makes that safe).
  const relay = startOutboxRelay(
    database,
    EVENT_SUBSCRIPTIONS,
    (name, envelope, db) => jobs.send(name, envelope, { db }),
    (error) => logger.warn({ err: error }, 'outbox relay failed'),
  );

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
      metrics,
      state: { workers: () => workers, stopping: () => isStopping },
    });
    address = await app.listen({ port: config.port, host: config.host });
  }
  const metricsServer: MetricsServer | null = config.metrics.port
    ? await startMetricsServer(metrics, { port: config.metrics.port, host: config.metrics.host })
    : null;

  let stopping: Promise<void> | null = null;
  const stop = () => {
    // Readiness answers 503 from here on, while requests still drain.
    isStopping = true;
    stopping ??= (async () => {
      await sweeper?.stop();
      await dispatcher?.stop();
      await stopInOrder({ config, logger, app, relay, jobs, tokenUsage, redis, database });
      await metricsServer?.close();
    })();
    return stopping;
  };
  return {
    database,
    app,
    jobs,
    address,
    metricsAddress: metricsServer?.address ?? null,
    bootstrap,
    logger,
    stop,
  };
}

/** The service's metrics, sampling its pools (each once) and its job queues at scrape time. */
function watchedMetrics(database: Database): Metrics {
  const metrics = createMetrics();
  metrics.watchPool('main', database.pool);
  if (database.readPool) metrics.watchPool('read', database.readPool);
  // Embedded: the job pool is a view of the main pool, not a pool of its own.
  if (database.engine === 'postgres') metrics.watchPool('jobs', database.jobs.pool);
  metrics.watchQueues(() => readQueueStats(database.pool));
  return metrics;
}

interface StopParts {
  config: Config;
  logger: ServiceLogger;
  app: FastifyInstance | null;
  relay: OutboxRelay;
  jobs: JobQueue;
  tokenUsage: TokenUsageTracker;
  redis: Redis | null;
  database: Database;
}

/** Resolves after `ms` (false) unless `work` settles first (true). */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const done = work.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([done, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The shutdown order of docs/operations.md; every step that waits is bounded. */
async function stopInOrder(parts: StopParts): Promise<void> {
  const { config, logger, app, relay, jobs, tokenUsage, redis, database } = parts;
  const deadline = Date.now() + config.shutdownTimeoutSeconds * 1000;
  const remaining = () => Math.max(0, deadline - Date.now());
  if (app) {
    // Stops accepting, closes idle keep-alive connections, waits for requests in flight.
    const closing = app.close();
    if (!(await within(closing, remaining() / 2))) {
      logger.warn('requests still running at the drain bound: closing their connections');
      app.server.closeAllConnections();
      await within(closing, 1000);
    }
  }
  await relay.stop();
  const { abandoned } = await jobs.stop(remaining());
  if (abandoned > 0) {
    logger.warn({ abandoned }, 'jobs still running at the stop bound: retried after they expire');
  }
  await tokenUsage.stop();
  redis?.disconnect();
  await database.close();
  logger.info('stopped');
}
