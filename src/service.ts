import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { buildApp } from './app';
import { EVENT_SUBSCRIPTIONS, jobDefinitions, outboundDeliveries } from './background-jobs';
import type { Config, ServiceRole } from './config';
import { type Database, openDatabase, patientPool } from './db/connection';
import { embeddedDatabaseExists } from './db/embedded';
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
  SWEEP_STALE_SCANS,
  startStaleScanSweeper,
} from './domains/scans/run/recovery';
import { startStatusEvaluator, startStatusMailDispatcher } from './domains/status/jobs';
import { createResponseWindow } from './domains/status/measurement/response-window';
import { readBuildInfo, readCliVersion } from './domains/system/build-info';
import type { ServiceState } from './domains/system/readiness';
import { type CreatedTenant, countTenants, createTenantWithOwner } from './domains/tenants/service';
import { createRateLimitStore } from './http/rate-limit';
import { builtWebAppDir } from './http/web-app';
import { type OutboxRelay, startOutboxRelay } from './jobs/outbox';
import { createJobQueue, type JobQueue } from './jobs/queue';
import { readQueueStats } from './jobs/queue-stats';
import { createServiceLogger, type ServiceLogger } from './logger';
import { createMetrics, type Metrics } from './observability/metrics';
import { type MetricsServer, startMetricsServer } from './observability/metrics-server';
import { startOperatorChannel } from './operator/channel';
import { advertiseService } from './operator/service-record';
import { createFileRoots } from './security/outbound-guard-files';
import { createSecretBox, readMasterKey, resolveMasterKey } from './security/secret-box';

export interface RunningService {
  database: Database;
  app: FastifyInstance | null;
  jobs: JobQueue;
  address: string | null;
  /** `http://host:port` of the metrics port (METRICS_PORT), or null. */
  metricsAddress: string | null;
  /** Set on the first start with an empty database (embedded or PostgreSQL). */
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

/**
 * Reports one start-up step: called with what begins ("creating the embedded database in …"),
 * it returns the call that reports its end with its time. The service logs them; the CLI writes
 * them to standard error.
 */
export type StepReporter = (message: string) => (done: string) => void;

export const quietSteps: StepReporter = () => () => {};

/** Start-up steps as log lines: what begins, then what was done and how long it took. */
export function loggedSteps(logger: ServiceLogger): StepReporter {
  return (message) => {
    logger.info(`${message} …`);
    const started = performance.now();
    return (done) => {
      const ms = Math.round(performance.now() - started);
      logger.info({ ms }, `${done} (${(ms / 1000).toFixed(1)} s)`);
    };
  };
}

/** Which database a configuration names, as a person reads it (a password is never shown). */
export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `the embedded database in ${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  return `PostgreSQL at ${user}${url.host}${url.pathname}`;
}

/** Opens the database (embedded or PostgreSQL) and applies migrations, reporting each step. */
export async function openServiceDatabase(
  config: Config,
  step: StepReporter = quietSteps,
): Promise<Database> {
  const where = describeDatabase(config);
  const creating = !config.databaseUrl && !embeddedDatabaseExists(config.dataDir);
  const opened = config.databaseUrl
    ? step(`connecting to ${where}`)
    : step(
        creating ? `creating ${where} (the first start takes a few seconds)` : `opening ${where}`,
      );
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    // The embedded server runs each protocol message of each connection in arrival order, so
    // two connections' extended-protocol queries interleave (Parse A, Parse B, Bind A, then "bind
    // message supplies 3 parameters, but prepared statement requires 2", an unhandled rejection
    // inside pg-boss). It is one session anyway: one connection loses no parallelism.
    poolSize: config.databaseUrl ? config.databasePoolSize : 1,
    jobPoolSize: config.databaseJobPoolSize,
    acquireTimeoutMs: config.databaseAcquireTimeoutMs,
    readUrl: config.databaseReadUrl,
    readMaxLagMs: config.databaseReadMaxLagMs,
  });
  try {
    // The pool connects lazily: one query makes "connected" true (and fails here, not later).
    if (config.databaseUrl) await database.pool.query('SELECT 1');
    opened(
      config.databaseUrl ? `connected to ${where}` : `${creating ? 'created' : 'opened'} ${where}`,
    );
    const migrating = step('migrating the database');
    // Patient: on a loaded machine the first connection may take longer than a request's wait.
    const { applied, skipped } = await migrate(patientPool(database.pool));
    migrating(`migrated: ${applied.length} applied, ${skipped.length} already applied`);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

// Arbitrary constant naming the first-tenant lock among advisory locks (PostgreSQL).
const FIRST_TENANT_LOCK_ID = 7_301_946_552;

/**
 * The first start on an empty database creates a tenant and returns its owner token, printed
 * once (both databases). On PostgreSQL several processes may start together: an advisory lock
 * (on the job pool, so the main pool's single connection stays free) makes exactly one tenant.
 */
async function createFirstTenant(database: Database): Promise<CreatedTenant | null> {
  const create = async () =>
    (await countTenants(database)) === 0
      ? createTenantWithOwner(database, { name: 'Default', plan: 'enterprise' })
      : null;
  if (database.engine === 'embedded') return create();
  const client = await database.jobs.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [FIRST_TENANT_LOCK_ID]);
    return await create();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [FIRST_TENANT_LOCK_ID]).catch(() => {});
    client.release();
  }
}

/**
 * The shared rate-limit store's client. ioredis is loaded only when REDIS_URL is set: most
 * installations run without it, and it costs memory at start (docs/operations.md#memory).
 */
async function connectRedis(url: string): Promise<Redis> {
  const { Redis: RedisClient } = await import('ioredis');
  const redis = new RedisClient(url, { enableOfflineQueue: false, lazyConnect: false });
  redis.on('error', () => {});
  return redis;
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
  const step = loggedSteps(logger);
  const began = performance.now();
  await createFileRoots(config.scans);
  const database = await openServiceDatabase(config, step);
  const bootstrap = await createFirstTenant(database);
  const { key, generated } = resolveMasterKey(config.masterKey, config.dataDir);
  if (generated) logger.info(`generated the master key into ${join(config.dataDir, 'master.key')}`);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const tokenUsage = createTokenUsageTracker(database);
  tokenUsage.start(config.tokenUsageFlushSeconds);
  const metrics = watchedMetrics(database);
  let workers: 'none' | 'starting' | 'started' = role === 'api' ? 'none' : 'starting';
  let isStopping = false;

  const secretBox = createSecretBox(key);
  const { jobs, jobDeps } = await prepareJobs(
    { database, config, secretBox, metrics, logger },
    step,
  );
  const running = role === 'api' ? null : await startWorkers(jobs, jobDeps, step);
  if (running) workers = 'started';
  // Every process relays committed outbox rows to pg-boss (SKIP LOCKED makes that safe).
  const relay = startOutboxRelay(
    database,
    EVENT_SUBSCRIPTIONS,
    (name, envelope, db) => jobs.send(name, envelope, { db }),
    (error) => logger.warn({ err: error }, 'outbox relay failed'),
  );

  const api =
    role === 'worker'
      ? null
      : await startApi(
          { config, database, secretBox, tokenUsage, metrics, logger, redis },
          { workers: () => workers, stopping: () => isStopping },
          step,
        );
  const app = api?.app ?? null;
  const address = api?.address ?? null;
  const metricsServer: MetricsServer | null = config.metrics.port
    ? await startMetricsServer(metrics, { port: config.metrics.port, host: config.metrics.host })
    : null;
  const operator = await startOperator(database, config, logger);
  // Operator commands of another shell find this service, whichever database they name.
  const unadvertise = advertiseService(config.dataDir, {
    database: describeDatabase(config),
    address,
  });
  const ms = Math.round(performance.now() - began);
  logger.info({ ms }, `ready in ${(ms / 1000).toFixed(1)} s`);

  let stopping: Promise<void> | null = null;
  const stop = () => {
    // Readiness answers 503 from here on, while requests still drain.
    isStopping = true;
    unadvertise();
    stopping ??= shutDown(
      { config, logger, app, relay, jobs, tokenUsage, redis, database },
      { operator, api, running, metricsServer },
    );
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

/** The stop order of startService's parts, after readiness turned false. */
async function shutDown(
  core: Parameters<typeof stopInOrder>[0],
  parts: {
    operator: Awaited<ReturnType<typeof startOperator>>;
    api: Awaited<ReturnType<typeof startApi>> | null;
    running: Awaited<ReturnType<typeof startWorkers>> | null;
    metricsServer: MetricsServer | null;
  },
): Promise<void> {
  // The load balancer sees readiness fail and stops sending before the listener closes; a
  // request on a connection closed at the drain would otherwise fail with a reset.
  if (core.app && core.config.shutdownDelayMs > 0) await sleep(core.config.shutdownDelayMs);
  await parts.operator?.close();
  await parts.api?.statusEvaluator.stop();
  await parts.running?.sweeper.stop();
  await parts.running?.dispatcher.stop();
  await stopInOrder(core);
  await parts.metricsServer?.close();
}

interface JobParts {
  database: Database;
  config: Config;
  secretBox: ReturnType<typeof createSecretBox>;
  metrics: Metrics;
  logger: ServiceLogger;
}

/** The job queue with every job registered (workers start later, per role). */
async function prepareJobs(parts: JobParts, step: StepReporter) {
  const { database, config, secretBox, metrics, logger } = parts;
  const preparing = step('preparing the job queue');
  const jobs = await createJobQueue(database, {
    onError: (error) =>
      logger.error({ err: error, queue: error.queue, worker: error.worker }, 'job queue error'),
  });
  const log = (message: string, details?: object) => logger.info(details ?? {}, message);
  const warn = (message: string, details?: object) => logger.warn(details ?? {}, message);
  // Job handlers get the job pool (PostgreSQL: their own connections; docs/operations.md).
  const jobDeps = { database: database.jobs, config, secretBox, log, warn, observe: metrics };
  for (const definition of jobDefinitions(jobDeps)) {
    jobs.register(definition);
  }
  await jobs.prepare();
  preparing('prepared the job queue');
  return { jobs, jobDeps };
}

/** The job workers, the stale-scan sweeper and the webhook retry dispatcher. */
async function startWorkers(
  jobs: JobQueue,
  jobDeps: Awaited<ReturnType<typeof prepareJobs>>['jobDeps'],
  step: StepReporter,
): Promise<{ sweeper: StaleScanSweeper; dispatcher: DeliveryDispatcher }> {
  const starting = step('starting the job workers');
  await jobs.work();
  // Scans left running by a process that died are recovered now, not at the next minute.
  await jobs.send(SWEEP_STALE_SCANS.name, { tenantId: null, correlationId: null, data: {} });
  // And then at an interval derived from the stale threshold (docs/repositories-and-scans.md).
  const sweeper = startStaleScanSweeper(jobDeps);
  // Webhook retries fall due at their own times (docs/integrations.md#retries).
  const deliveries = startDeliveryDispatcher(outboundDeliveries(jobDeps));
  // Status subscriber mail, likewise (docs/status.md#e-mail).
  const mail = startStatusMailDispatcher(jobDeps);
  const dispatcher: DeliveryDispatcher = {
    stop: async () => {
      await Promise.all([deliveries.stop(), mail.stop()]);
    },
  };
  starting('started the job workers');
  return { sweeper, dispatcher };
}

interface ApiParts extends JobParts {
  tokenUsage: TokenUsageTracker;
  redis: Redis | null;
}

/** The HTTP API, listening. */
async function startApi(parts: ApiParts, state: ServiceState, step: StepReporter) {
  const { config, database, secretBox, tokenUsage, metrics, logger, redis } = parts;
  const listening = step('starting the API');
  // The API's answers are the status page's API component: this process measures the status.
  const responseWindow = createResponseWindow();
  const app = await buildApp({
    webAppDir: builtWebAppDir(),
    responseWindow,
    config,
    database,
    secretBox,
    rateLimits: createRateLimitStore(redis),
    tokenUsage,
    buildInfo: readBuildInfo(config.environment),
    cliVersion: readCliVersion(),
    metrics,
    state,
    logger,
  });
  // One line per address, said once: Fastify's own "Server listening at" lines are these.
  const address = await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: (at) => `listening on ${at}`,
  });
  listening('started the API');
  const statusEvaluator = startStatusEvaluator({
    database,
    responseWindow,
    subscriptions: { config, secretBox },
    log: (message, details) => logger.warn(details ?? {}, message),
  });
  return { app, address, statusEvaluator };
}

/** The embedded database has one owner, this process: operator commands come through it. */
function startOperator(database: Database, config: Config, logger: ServiceLogger) {
  if (database.engine !== 'embedded') return null;
  // Patient, as background work is: an import of many batches waits its turn between them
  // behind requests instead of failing part-way after one acquire timeout.
  const context = {
    database: database.jobs,
    dataDir: config.dataDir,
    fileUrlRoots: config.scans.fileUrlRoots,
    masterKey: readMasterKey(config.masterKey, config.dataDir),
  };
  return startOperatorChannel(context, logger);
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
