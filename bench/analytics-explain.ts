/**
 * `BENCH_EXPLAIN=1 npm run bench:analytics` (or this module on a kept database): every query the
 * dashboard and the trend shapes run, with its EXPLAIN ANALYZE plan in the tenant's scope, so
 * that a slow one is found at the benchmark's data size.
 */
import type pg from 'pg';
import type { Database } from '../src/db/connection';
import { kyselyOnClient, scopeStatement } from '../src/db/tenant-scope';
import { globalDashboard } from '../src/domains/analytics/dashboard';
import { type TrendQuery, trends } from '../src/domains/analytics/trends';

interface Captured {
  text: string;
  values: unknown[];
}

/** A client that records each query's text and values before running it. */
function recording(client: pg.PoolClient, captured: Captured[]): pg.PoolClient {
  const query = (text: unknown, values?: unknown[]) => {
    if (typeof text === 'string') captured.push({ text, values: values ?? [] });
    return client.query(text as string, values);
  };
  return { query } as unknown as pg.PoolClient;
}

async function explainEach(client: pg.PoolClient, captured: Captured[]): Promise<string[]> {
  const out: string[] = [];
  for (const { text, values } of captured) {
    const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
    const lines = plan.rows.map((row: Record<string, string>) => row['QUERY PLAN'] ?? '');
    const total = lines.find((line) => line.startsWith('Execution Time')) ?? '';
    out.push(`-- ${total}\n${text.replace(/\s+/g, ' ').slice(0, 300)}\n${lines.join('\n')}`);
  }
  return out;
}

/** Runs the dashboard and each trend query once, then explains every query they ran. */
export async function explainAnalytics(
  database: Database,
  tenantId: string,
  trendQueries: Array<[string, TrendQuery]>,
): Promise<string> {
  const client = await database.pool.connect();
  const report: string[] = [];
  try {
    await client.query(`BEGIN; ${scopeStatement(tenantId)}`);
    const shapes: Array<[string, (db: ReturnType<typeof kyselyOnClient>) => Promise<unknown>]> = [
      ['dashboard', (db) => globalDashboard(db, { quantum: true })],
      ...trendQueries.map(
        ([label, query]): [string, (db: ReturnType<typeof kyselyOnClient>) => Promise<unknown>] => [
          label,
          (db) => trends(db, query),
        ],
      ),
    ];
    for (const [label, run] of shapes) {
      const captured: Captured[] = [];
      await run(kyselyOnClient(recording(client, captured)));
      report.push(
        `=== ${label}: ${captured.length} queries`,
        ...(await explainEach(client, captured)),
      );
    }
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
  return report.join('\n\n');
}
