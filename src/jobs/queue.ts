import type pg from 'pg';
import PgBoss from 'pg-boss';
import { type Database, patientPool } from '../db/connection';

/**
 * Background jobs on pg-boss in the same database (docs/design.md#jobs). Every payload carries the
 * tenant (or null for system jobs), the correlation id of the request that asked for it and a
 * payload version. Active jobs expire, so a job whose process died is retried, never stuck.
 */
export interface JobEnvelope<T> {
  version: 1;
  tenantId: string | null;
  correlationId: string | null;
  data: T;
}

/**
 * What the queue registers: a job's settings and a handler of the raw envelope. Domains build
 * these from a contract (`jobDefinition` in ./contract.ts), which checks the payload first.
 */
export interface JobDefinition {
  name: string;
  /** Seconds an active job may run before pg-boss fails it over for a retry. */
  expireInSeconds: number;
  retryLimit: number;
  /** Cron expression (UTC) for scheduled system jobs. */
  schedule?: string;
  /**
   * `short`: at most one waiting job per singleton key (pg-boss drops a send while one waits),
   * so repeated requests for the same work coalesce into one run.
   */
  policy?: 'short';
  /** Per-job send options read from the envelope: fetch order, coalescing key, delay. */
  sendOptions?: (envelope: Omit<JobEnvelope<unknown>, 'version'>) => JobSendOptions;
  /** In the outbox relay's transaction, before the job is sent: the payload to send (contract.ts). */
  atRelay?: (envelope: Omit<JobEnvelope<unknown>, 'version'>, db: SqlExecutor) => Promise<unknown>;
  /** False: this envelope starts no job (the contract's `accepts`); absent: every one does. */
  accepts?: (envelope: Omit<JobEnvelope<unknown>, 'version'>) => boolean;
  handle: (envelope: JobEnvelope<unknown>) => Promise<void>;
}

/** Whether an envelope starts its job: what `send` and the tests' inline runner both ask. */
export function startsJob(
  definition: JobDefinition,
  envelope: Omit<JobEnvelope<unknown>, 'version'>,
): boolean {
  return definition.accepts?.(envelope) ?? true;
}

export interface JobSendOptions {
  /** Higher first: pg-boss fetches by priority, then by age. */
  priority?: number;
  singletonKey?: string;
  startAfterSeconds?: number;
}

export interface JobQueue {
  boss: PgBoss;
  register: (definition: JobDefinition) => void;
  /**
   * `options.db` sends through an open transaction's client (the outbox relay): the job and the
   * outbox row's removal commit together, and no second connection is needed while the
   * transaction is open (the embedded database serves one transaction at a time). Null: no job
   * was sent (pg-boss coalesced it, or the definition does not accept the envelope).
   */
  send: (
    name: string,
    envelope: Omit<JobEnvelope<unknown>, 'version'>,
    options?: { db?: SqlExecutor },
  ) => Promise<string | null>;
  /** Creates the queues of every registered definition (before anything is sent). */
  prepare: () => Promise<void>;
  /** Starts processing registered queues (worker role). */
  work: () => Promise<void>;
  /**
   * Stops fetching, waits up to `timeoutMs` for running jobs and pg-boss's own statements, then
   * lets go of the pool: afterwards nothing of the queue touches it. Returns how many jobs were
   * still running at the bound (abandoned: they expire and are retried, as after a crash).
   */
  stop: (timeoutMs?: number) => Promise<{ abandoned: number }>;
}

export interface SqlExecutor {
  executeSql: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;
}

export interface JobQueueOptions {
  /** pg-boss reports errors of its own loops here (fetch, maintenance, cron, completion). */
  onError?: (error: Error & { queue?: string; worker?: string }) => void;
  /**
   * How often pg-boss's maintenance runs (default 30 s): it fails expired jobs over for their
   * retry, so a job whose process died runs again within its expiry plus this interval.
   */
  maintenanceIntervalSeconds?: number;
}

/** A job fetched while the queue stops is handed back (failed, so pg-boss retries it). */
export class QueueStoppingError extends Error {
  constructor() {
    super('The worker is stopping; the job runs again on another attempt.');
    this.name = 'QueueStoppingError';
  }
}

/**
 * A claimed job whose envelope or payload does not match its contract. It can never succeed, so
 * the queue does not retry it: it reports the error and cancels the job (runJob below).
 */
export class InvalidJobPayloadError extends Error {
  constructor(
    readonly job: string,
    readonly problems: string[],
  ) {
    super(`job ${job} has an invalid payload: ${problems.join('; ')}`);
    this.name = 'InvalidJobPayloadError';
  }
}

// Arbitrary constant naming the queue-creation lock among advisory locks (PostgreSQL).
const QUEUE_CREATION_LOCK_ID = 7_301_946_553;

/** How often a worker asks each queue for jobs (docs/operations.md). */
export const POLLING_INTERVAL_SECONDS = 2;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The answer to a statement dropped after the stop: nothing read, nothing affected. pg-boss's
 * commands on jobs (complete, fail, cancel...) end in `SELECT COUNT(*) FROM results` and it reads
 * `rows[0].count` of their answer: an empty list threw a TypeError while the service stopped, so
 * those get a count of 0, every other statement no rows.
 */
function dropped(text: string): { rows: unknown[] } {
  return /SELECT COUNT\(\*\) FROM results\s*$/i.test(text)
    ? { rows: [{ count: '0' }] }
    : { rows: [] };
}

/** Puts a definition's cron schedule (if any) into pg-boss; a scheduled run has no tenant. */
async function scheduleJob(boss: PgBoss, definition: JobDefinition): Promise<void> {
  if (!definition.schedule) return;
  await boss.schedule(
    definition.name,
    definition.schedule,
    { version: 1, tenantId: null, correlationId: null, data: {} },
    { expireInSeconds: definition.expireInSeconds, retryLimit: definition.retryLimit },
  );
}

/**
 * pg-boss's create_queue deadlocks when two processes create the same queue at once (two
 * replicas starting together on a new database): on PostgreSQL, creation is serialised across
 * processes by an advisory lock, and while it is held pg-boss's statements run on the client that
 * holds it (`target`; one client, so a job pool of one connection cannot wait on itself). In this
 * process, callers of `run` queue behind each other.
 */
function queueCreationLock(database: Database, pool: pg.Pool) {
  let pinned: pg.PoolClient | null = null;
  let creating: Promise<unknown> = Promise.resolve();
  return {
    target: (): pg.Pool | pg.PoolClient => pinned ?? pool,
    run(create: () => Promise<void>): Promise<void> {
      if (database.engine === 'embedded') return create();
      const run = creating.then(async () => {
        const client = await pool.connect();
        try {
          await client.query('SELECT pg_advisory_lock($1)', [QUEUE_CREATION_LOCK_ID]);
          pinned = client;
          await create();
        } finally {
          pinned = null;
          await client
            .query('SELECT pg_advisory_unlock($1)', [QUEUE_CREATION_LOCK_ID])
            .catch(() => {});
          client.release();
        }
      });
      creating = run.catch(() => {});
      return run;
    },
  };
}

type CreationLock = ReturnType<typeof queueCreationLock>;

/**
 * pg-boss runs its SQL through the job pool, waiting for a connection rather than failing:
 * pg-boss does not await its own completion writes (`complete`/`fail` after a handler), so a
 * pool timeout there was an unhandled rejection that ended the process under load. Every
 * statement is tracked so stopping can wait for them; once released none reaches the pool.
 */
function trackedStatements(creationLock: CreationLock) {
  const pending = new Set<Promise<unknown>>();
  let released = false;
  const executeSql = (text: string, values?: unknown[]) => {
    // Only completions of jobs abandoned at the stop bound get here: dropping them leaves the
    // jobs active until they expire and are retried, exactly as after a crash.
    if (released) return Promise.resolve(dropped(text));
    // A statement still waiting for a connection when the pool closes fails after the release:
    // dropped for the same reason.
    const statement = creationLock
      .target()
      .query(text, values)
      .catch((error: Error) => {
        if (released) return dropped(text);
        throw error;
      });
    pending.add(statement);
    const settled = () => pending.delete(statement);
    statement.then(settled, settled);
    return statement;
  };
  return {
    executeSql,
    pending: () => pending.size,
    released: () => released,
    release: () => {
      released = true;
    },
  };
}

/** A started pg-boss whose SQL goes through `executeSql`. */
async function startBoss(
  executeSql: ReturnType<typeof trackedStatements>['executeSql'],
  creationLock: CreationLock,
  options: JobQueueOptions,
): Promise<PgBoss> {
  const boss = new PgBoss({
    db: { executeSql },
    schema: 'pgboss',
    supervise: true,
    migrate: true,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
  });
  // Without a listener an 'error' event would be thrown; pg-boss keeps running after each.
  boss.on('error', (error) => options.onError?.(error));
  // pg-boss's start creates its own cron queue (timekeeper), so it takes the creation lock too.
  await creationLock.run(async () => {
    await boss.start();
  });
  return boss;
}

/** Creates each named queue once per process, under the creation lock. */
function queueCreator(
  boss: PgBoss,
  creationLock: CreationLock,
  definitions: Map<string, JobDefinition>,
) {
  const created = new Set<string>();
  return (names: string[]): Promise<void> => {
    const missing = names.filter((name) => !created.has(name));
    if (missing.length === 0) return Promise.resolve();
    return creationLock.run(async () => {
      for (const name of missing) {
        const policy = definitions.get(name)?.policy;
        await boss.createQueue(name, policy ? { name, policy } : undefined);
        created.add(name);
      }
    });
  };
}

/** pg-boss's send options of one job: the definition's, then the envelope's own. */
function sendOptionsOf(
  definition: JobDefinition,
  envelope: Omit<JobEnvelope<unknown>, 'version'>,
): PgBoss.SendOptions {
  const own = definition.sendOptions?.(envelope) ?? {};
  return {
    expireInSeconds: definition.expireInSeconds,
    retryLimit: definition.retryLimit,
    retryBackoff: true,
    ...(own.priority !== undefined ? { priority: own.priority } : {}),
    ...(own.singletonKey !== undefined ? { singletonKey: own.singletonKey } : {}),
    ...(own.startAfterSeconds !== undefined ? { startAfter: own.startAfterSeconds } : {}),
  };
}

/**
 * Runs one claimed job. A payload that does not match its contract can never succeed: it is
 * reported and the job cancelled (pg-boss's completion of the batch passes over a cancelled
 * job), so it fails once, loudly, with no retries; the batch's other jobs run.
 */
async function runJob(
  boss: PgBoss,
  definition: JobDefinition,
  job: PgBoss.Job<JobEnvelope<unknown>>,
  onError: JobQueueOptions['onError'],
): Promise<void> {
  try {
    await definition.handle(job.data);
  } catch (error) {
    if (!(error instanceof InvalidJobPayloadError)) throw error;
    onError?.(Object.assign(error, { queue: definition.name }));
    await boss.cancel(definition.name, job.id);
  }
}

/** Runs fetched batches, tracked so stopping can wait for them; none starts once stopping. */
function batchRunner(boss: PgBoss, onError: JobQueueOptions['onError']) {
  const running = new Set<Promise<void>>();
  let stopping = false;
  const handleBatch = (definition: JobDefinition, jobs: PgBoss.Job<JobEnvelope<unknown>>[]) => {
    // A fetch that was in flight when stopping began still delivers its jobs: none starts.
    if (stopping) return Promise.reject(new QueueStoppingError());
    const batch = (async () => {
      for (const job of jobs) await runJob(boss, definition, job, onError);
    })();
    running.add(batch);
    const settled = () => running.delete(batch);
    batch.then(settled, settled);
    return batch;
  };
  return {
    handleBatch,
    running: () => running.size,
    stopStarting: () => {
      stopping = true;
    },
  };
}

export async function createJobQueue(
  database: Database,
  options: JobQueueOptions = {},
): Promise<JobQueue> {
  const pool = patientPool(database.jobs.pool);
  const creationLock = queueCreationLock(database, pool);
  const statements = trackedStatements(creationLock);
  const boss = await startBoss(statements.executeSql, creationLock, options);
  const definitions = new Map<string, JobDefinition>();
  const createQueues = queueCreator(boss, creationLock, definitions);
  const batches = batchRunner(boss, options.onError);

  return {
    boss,
    register(definition) {
      definitions.set(definition.name, definition);
    },
    async send(name, queued, options = {}) {
      const definition = definitions.get(name);
      if (!definition) throw new Error(`unknown job ${name}`);
      if (!startsJob(definition, queued)) return null;
      await createQueues([name]);
      const envelope =
        options.db && definition.atRelay
          ? { ...queued, data: await definition.atRelay(queued, options.db) }
          : queued;
      return boss.send(name, { version: 1, ...envelope } as object, {
        ...sendOptionsOf(definition, envelope),
        ...(options.db ? { db: options.db as PgBoss.Db } : {}),
      });
    },
    async prepare() {
      await createQueues([...definitions.keys()]);
    },
    async work() {
      await createQueues([...definitions.keys()]);
      for (const definition of definitions.values()) {
        await boss.work<JobEnvelope<unknown>>(
          definition.name,
          { batchSize: 4, pollingIntervalSeconds: POLLING_INTERVAL_SECONDS },
          (jobs) => batches.handleBatch(definition, jobs),
        );
        await scheduleJob(boss, definition);
      }
    },
    async stop(timeoutMs = 10_000) {
      if (statements.released()) return { abandoned: 0 };
      batches.stopStarting();
      const deadline = Date.now() + timeoutMs;
      // pg-boss's graceful wait covers jobs it knows are running; it does not await the
      // completion writes it starts, nor a fetch still in flight: wait for those too.
      await boss
        .stop({ graceful: true, wait: true, timeout: Math.max(timeoutMs, 1000), close: false })
        .catch((error: Error) => options.onError?.(error));
      while ((batches.running() > 0 || statements.pending() > 0) && Date.now() < deadline) {
        await delay(25);
      }
      const abandoned = batches.running();
      statements.release();
      return { abandoned };
    },
  };
}
