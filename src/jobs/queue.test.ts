import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/support/eventually';
import { createScratchDatabase } from '../../test/support/service-process';
import { openTestDatabase } from '../../test/support/test-app';
import { type Database, DatabaseBusyError, openDatabase } from '../db/connection';
import { migrate } from '../db/migrate';
import { defineJob, InvalidJobPayloadError, jobDefinition } from './contract';
import { createJobQueue, type JobQueue } from './queue';

/**
 * pg-boss does not await the completion it writes after a handler returns. With a busy pool that
 * write used to fail at the connection timeout as an unhandled rejection, which ended the
 * service. Here the only job connection is held well past the acquire timeout while a job
 * finishes: the completion waits for it, nothing is rejected, and the job is completed.
 */
describe('job queue with an exhausted pool', () => {
  let database: Database;
  let queue: JobQueue;
  let drop = async () => {};
  let closed = false;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    let url: string | null = null;
    if (process.env.TEST_DATABASE_URL) {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL);
      url = scratch.url;
      drop = scratch.drop;
    }
    database = await openDatabase({
      url,
      dataDir: null,
      poolSize: 1,
      jobPoolSize: 1,
      acquireTimeoutMs: 200,
    });
    await migrate(database.pool);
    queue = await createJobQueue(database, {});
    queue.register({
      name: 'test.held',
      expireInSeconds: 60,
      retryLimit: 0,
      handle: async () => {
        started();
        await gate;
      },
    });
    await queue.prepare();
    await queue.work();
  }, 60_000);
  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    await queue?.stop(5000);
    if (!closed) await database?.close();
    await drop();
  });

  it('a request-side checkout fails fast with DatabaseBusyError', async () => {
    const held = await database.pool.connect();
    try {
      const before = Date.now();
      await expect(database.pool.connect()).rejects.toBeInstanceOf(DatabaseBusyError);
      await expect(database.pool.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseBusyError);
      expect(Date.now() - before).toBeLessThan(2000);
    } finally {
      held.release();
    }
  });

  it('completes a job whose completion waited longer than the acquire timeout', async () => {
    const id = await queue.send('test.held', { tenantId: null, correlationId: null, data: {} });
    await running;
    // The job pool's only connection, held for five acquire timeouts while the job finishes.
    const held = await database.jobs.pool.connect();
    release();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    held.release();
    const state = await eventually(
      async () => (await queue.boss.getJobById('test.held', id as string))?.state,
      { what: 'the held job to complete', timeoutMs: 5_000, until: (s) => s === 'completed' },
    );
    expect(state).toBe('completed');
    expect(rejections).toEqual([]);
  }, 30_000);

  it('stops: waits for the running statements, then touches the pool no more', async () => {
    const { abandoned } = await queue.stop(5000);
    expect(abandoned).toBe(0);
    // After the stop pg-boss's statements no longer reach the pool, even when it is gone.
    await database.close();
    closed = true;
    await expect(queue.boss.getQueues()).resolves.toBeDefined();
    expect(rejections).toEqual([]);
  });
});

/**
 * A job still running when the stop's bound passes is abandoned (it expires and runs again, as
 * after a crash). When its handler returns later, pg-boss writes the completion through the
 * released executor: that write is dropped, and nothing may fail on the dropped result (pg-boss
 * read `rows[0].count` of it and threw a TypeError while the service stopped).
 */
describe('a job still running at the stop bound', () => {
  it('is abandoned, and its late completion is dropped without an error', async () => {
    const database = await openTestDatabase(2);
    const errors: unknown[] = [];
    const onRejection = (reason: unknown) => errors.push(reason);
    process.on('unhandledRejection', onRejection);
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    try {
      const queue = await createJobQueue(database, { onError: (error) => errors.push(error) });
      queue.register({
        name: 'test.outlives-stop',
        expireInSeconds: 60,
        retryLimit: 1,
        handle: async () => {
          started();
          await gate;
        },
      });
      await queue.prepare();
      await queue.work();
      await queue.send('test.outlives-stop', { tenantId: null, correlationId: null, data: {} });
      await running;
      expect((await queue.stop(300)).abandoned).toBe(1);
      finish();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(errors).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      await database.close();
    }
  }, 60_000);
});

/**
 * A claimed job whose payload does not match its contract can never succeed: it is reported
 * once and cancelled, not retried, and the valid job claimed beside it still runs.
 */
describe('a job with an invalid payload', () => {
  it('is reported and cancelled at once, without retries', async () => {
    const database = await openTestDatabase(2);
    const errors: Error[] = [];
    const seen: string[] = [];
    const contract = defineJob({
      name: 'test.typed',
      payload: Type.Object({ id: Type.String() }),
      expireInSeconds: 60,
      retryLimit: 5,
    });
    const queue = await createJobQueue(database, { onError: (error) => errors.push(error) });
    try {
      queue.register(
        jobDefinition(contract, async ({ data }) => {
          seen.push(data.id);
        }),
      );
      await queue.prepare();
      const bad = await queue.send('test.typed', {
        tenantId: null,
        correlationId: null,
        data: { id: 7 },
      });
      await queue.send('test.typed', { tenantId: null, correlationId: null, data: { id: 'ok' } });
      await queue.work();
      const state = await eventually(
        async () => (await queue.boss.getJobById('test.typed', bad as string))?.state,
        { what: 'the invalid job to end', timeoutMs: 10_000, until: (s) => s === 'cancelled' },
      );
      expect(state).toBe('cancelled');
      await eventually(async () => seen, { what: 'the valid job', until: (s) => s.length === 1 });
      expect(seen).toEqual(['ok']);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(InvalidJobPayloadError);
      expect((await queue.boss.getJobById('test.typed', bad as string))?.retryCount).toBe(0);
    } finally {
      await queue.stop(2000);
      await database.close();
    }
  }, 60_000);
});

/** A subscriber that takes only some of an event's payloads: the others never become a job. */
describe('a job whose contract refuses an envelope', () => {
  it('is not sent; an accepted one is', async () => {
    const database = await openTestDatabase(2);
    const contract = defineJob({
      name: 'test.some',
      payload: Type.Object({ id: Type.String(), skip: Type.Optional(Type.Boolean()) }),
      expireInSeconds: 60,
      retryLimit: 0,
      accepts: (data) => data.skip !== true,
    });
    const queue = await createJobQueue(database, {});
    try {
      queue.register(jobDefinition(contract, async () => {}));
      await queue.prepare();
      const base = { tenantId: null, correlationId: null };
      expect(await queue.send('test.some', { ...base, data: { id: 'a', skip: true } })).toBeNull();
      const sent = await queue.send('test.some', { ...base, data: { id: 'b' } });
      expect(sent).toEqual(expect.any(String));
      const { rows } = await database.jobs.pool.query(
        "SELECT data->'data'->>'id' AS id FROM pgboss.job WHERE name = 'test.some'",
      );
      expect(rows).toEqual([{ id: 'b' }]);
    } finally {
      await queue.stop(2000);
      await database.close();
    }
  }, 60_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'queues starting together on a new database',
  () => {
    // pg-boss's start creates its cron queue; unserialised, two replicas deadlocked there.
    it('start without a deadlock, whatever the interleaving', async () => {
      for (let round = 0; round < 4; round++) {
        const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL as string);
        const databases = await Promise.all(
          [0, 1, 2].map(() =>
            openDatabase({ url: scratch.url, dataDir: null, poolSize: 2, jobPoolSize: 3 }),
          ),
        );
        try {
          const queues = await Promise.all(
            databases.map(async (database) => {
              const queue = await createJobQueue(database);
              for (const name of ['test.a', 'test.b', 'test.c', 'test.d']) {
                queue.register({
                  name,
                  expireInSeconds: 60,
                  retryLimit: 0,
                  handle: async () => {},
                });
              }
              await queue.prepare();
              return queue;
            }),
          );
          await Promise.all(queues.map((queue) => queue.stop(1000)));
        } finally {
          await Promise.all(databases.map((database) => database.close()));
          await scratch.drop();
        }
      }
    }, 120_000);
  },
);
