/**
 * A job worker process for the kill -9 test (test/e2e/process-lifecycle.test.ts): the service's
 * own queue code (createJobQueue: pg-boss through the job pool) with one job of short expiry.
 * `node --import tsx job-worker-process.ts send|hang|finish`; DATABASE_URL or DATA_DIR; the
 * job's expiry and pg-boss's maintenance interval from KILL_NINE_EXPIRY_SECONDS and
 * KILL_NINE_MAINTENANCE_SECONDS (the test sets both and bounds the recovery by them).
 *   send:   queues one job, then exits;
 *   hang:   works the queue, prints "started <retryCount>" and never finishes the job;
 *   finish: works the queue, prints "finished <retryCount>" for each job it completes.
 */
import { openDatabase } from '../../src/db/connection';
import { migrate } from '../../src/db/migrate';
import { createJobQueue } from '../../src/jobs/queue';

const KILL_NINE_JOB = 'test.kill-nine';
const seconds = (name: string) => {
  const value = Number(process.env[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number`);
  return value;
};
const expireInSeconds = seconds('KILL_NINE_EXPIRY_SECONDS');
const maintenanceIntervalSeconds = seconds('KILL_NINE_MAINTENANCE_SECONDS');

const mode = process.argv[2];
const database = await openDatabase({
  url: process.env.DATABASE_URL ?? null,
  dataDir: process.env.DATA_DIR ?? null,
  poolSize: 1,
});
await migrate(database.pool);
const queue = await createJobQueue(database, { maintenanceIntervalSeconds });
queue.register({
  name: KILL_NINE_JOB,
  expireInSeconds,
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
