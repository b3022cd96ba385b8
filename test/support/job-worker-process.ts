/**
 * A job worker process for the kill -9 test (test/e2e/process-lifecycle.test.ts): the service's
 * own queue code (createJobQueue: pg-boss through the job pool) with one job of short expiry.
 * `node --import tsx job-worker-process.ts send|hang|finish`; DATABASE_URL or DATA_DIR.
 *   send:   queues one job, then exits;
 *   hang:   works the queue, prints "started <retryCount>" and never finishes the job;
 *   finish: works the queue, prints "finished <retryCount>" for each job it completes.
 */
import { openDatabase } from '../../src/db/connection';
import { migrate } from '../../src/db/migrate';
import { createJobQueue } from '../../src/jobs/queue';

export const KILL_NINE_JOB = 'test.kill-nine';
export const KILL_NINE_EXPIRY_SECONDS = 3;

const mode = process.argv[2];
const database = await openDatabase({
  url: process.env.DATABASE_URL ?? null,
  dataDir: process.env.DATA_DIR ?? null,
  poolSize: 1,
});
await migrate(database.pool);
const queue = await createJobQueue(database, { maintenanceIntervalSeconds: 1 });
queue.register<{ n: number }>({
  name: KILL_NINE_JOB,
  expireInSeconds: KILL_NINE_EXPIRY_SECONDS,
  retryLimit: 2,
  handle: async () => {
    const { rows } = await database.pool.query<{ retry_count: number }>(
      `SELECT retry_count FROM pgboss.job WHERE name = $1 AND state = 'active'`,
      [KILL_NINE_JOB],
    );
    const retries = rows[0]?.retry_count ?? -1;
    if (mode === 'hang') {
      console.log(`started ${retries}`);
      await new Promise(() => {});
    }
    console.log(`finished ${retries}`);
  },
});
await queue.prepare();
if (mode === 'send') {
  await queue.send(KILL_NINE_JOB, { tenantId: null, correlationId: null, data: { n: 1 } });
  await queue.stop();
  await database.close();
  console.log('sent');
} else {
  await queue.work();
  console.log('working');
}
