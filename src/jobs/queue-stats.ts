import type pg from 'pg';

/** One queue's jobs right now (docs/operations.md#metrics). */
export interface QueueStats {
  queue: string;
  /** Created, or waiting for a retry (including a retry's back-off). */
  waiting: number;
  active: number;
  /** Seconds since the oldest waiting job was created; 0 when none waits. */
  oldestWaitingSeconds: number;
}

/**
 * Reads every pg-boss queue's waiting and active jobs in one statement. Finished jobs are
 * filtered by the join, so the cost follows the open jobs, not the history pg-boss keeps.
 */
export async function readQueueStats(pool: pg.Pool): Promise<QueueStats[]> {
  const { rows } = await pool.query<QueueStats>(
    `SELECT q.name AS queue,
       count(j.id) FILTER (WHERE j.state IN ('created', 'retry'))::int AS waiting,
       count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
       COALESCE(EXTRACT(EPOCH FROM now() - min(j.created_on)
         FILTER (WHERE j.state IN ('created', 'retry'))), 0)::float8 AS "oldestWaitingSeconds"
     FROM pgboss.queue q
     LEFT JOIN pgboss.job j ON j.name = q.name AND j.state IN ('created', 'retry', 'active')
     GROUP BY q.name
     ORDER BY q.name`,
  );
  return rows;
}
