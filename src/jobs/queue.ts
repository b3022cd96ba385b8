import PgBoss from 'pg-boss';
import type { Database } from '../db/connection';

/**
 * Background jobs on pg-boss in the same database (DESIGN.md §5). Every payload carries the
 * tenant (or null for system jobs), the correlation id of the request that asked for it and a
 * payload version. Active jobs expire, so a job whose process died is retried, never stuck.
 */
export interface JobEnvelope<T> {
  version: 1;
  tenantId: string | null;
  correlationId: string | null;
  data: T;
}

export interface JobDefinition<T> {
  name: string;
  /** Seconds an active job may run before pg-boss fails it over for a retry. */
  expireInSeconds: number;
  retryLimit: number;
  /** Cron expression (UTC) for scheduled system jobs. */
  schedule?: string;
  handle: (envelope: JobEnvelope<T>) => Promise<void>;
}

export interface JobQueue {
  boss: PgBoss;
  register: <T>(definition: JobDefinition<T>) => void;
  /**
   * `options.db` sends through an open transaction's client (the outbox relay): the job and the
   * outbox row's removal commit together, and no second connection is needed while the
   * transaction is open (the embedded database serves one transaction at a time).
   */
  send: <T>(
    name: string,
    envelope: Omit<JobEnvelope<T>, 'version'>,
    options?: { db?: SqlExecutor },
  ) => Promise<string | null>;
  /** Creates the queues of every registered definition (before anything is sent). */
  prepare: () => Promise<void>;
  /** Starts processing registered queues (worker role). */
  work: () => Promise<void>;
  stop: () => Promise<void>;
}

export interface SqlExecutor {
  executeSql: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;
}

export async function createJobQueue(
  database: Database,
  options: { onError?: (error: Error) => void } = {},
): Promise<JobQueue> {
  const boss = new PgBoss({
    // pg-boss runs its SQL through the service's pool, so the embedded mode needs nothing else.
    db: { executeSql: (text, values) => database.pool.query(text, values) },
    schema: 'pgboss',
    supervise: true,
    migrate: true,
  });
  boss.on('error', (error) => options.onError?.(error));
  await boss.start();
  const definitions = new Map<string, JobDefinition<unknown>>();
  const created = new Set<string>();
  const ensureQueue = async (name: string) => {
    if (created.has(name)) return;
    await boss.createQueue(name);
    created.add(name);
  };

  return {
    boss,
    register(definition) {
      definitions.set(definition.name, definition as JobDefinition<unknown>);
    },
    async send(name, envelope, options = {}) {
      const definition = definitions.get(name);
      if (!definition) throw new Error(`unknown job ${name}`);
      await ensureQueue(name);
      return boss.send(name, { version: 1, ...envelope } as object, {
        expireInSeconds: definition.expireInSeconds,
        retryLimit: definition.retryLimit,
        retryBackoff: true,
        ...(options.db ? { db: options.db as PgBoss.Db } : {}),
      });
    },
    async prepare() {
      for (const name of definitions.keys()) await ensureQueue(name);
    },
    async work() {
      for (const definition of definitions.values()) {
        await boss.createQueue(definition.name);
        await boss.work<JobEnvelope<unknown>>(
          definition.name,
          { batchSize: 4, pollingIntervalSeconds: 2 },
          async (jobs) => {
            for (const job of jobs) await definition.handle(job.data);
          },
        );
        if (definition.schedule) {
          await boss.schedule(
            definition.name,
            definition.schedule,
            { version: 1, tenantId: null, correlationId: null, data: {} },
            {
              expireInSeconds: definition.expireInSeconds,
              retryLimit: definition.retryLimit,
            },
          );
        }
      }
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000, wait: true });
    },
  };
}
