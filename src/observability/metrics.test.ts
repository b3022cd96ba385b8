import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGitRepository,
  type GitFixture,
  POLYGLOT_FILES,
} from '../../test/support/git-fixtures';
import { createTestApp, type TestApp, type TestTenant } from '../../test/support/test-app';
import { RUN_SCAN } from '../domains/scans/service';
import { createJobQueue, type JobQueue } from '../jobs/queue';
import { readQueueStats } from '../jobs/queue-stats';
import { createMetrics, type Metrics } from './metrics';
import { type MetricsServer, startMetricsServer } from './metrics-server';

/**
 * The metrics an operator scrapes (docs/operations.md#metrics), after real work: requests, a scan
 * run through the worker's handlers, the pools, and pg-boss queues on the same database.
 */
const OPERATOR_TOKEN = 'operator-secret-for-tests-0123456789';

let t: TestApp;
let metrics: Metrics;
let repo: GitFixture;
let tenant: TestTenant;
let queue: JobQueue;
let server: MetricsServer;
let scrapedText = '';

/** The value of one series line, matched by name and every given label; undefined if absent. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([key, value]) =>
      line.includes(`${key}="${value}"`),
    );
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

const scrape = () =>
  t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
  });

beforeAll(async () => {
  metrics = createMetrics({ processMetrics: false });
  t = await createTestApp({ operatorToken: OPERATOR_TOKEN }, { metrics });
  metrics.watchPool('main', t.database.pool);
  // pg-boss on the test database: queues exist and one job waits (no worker takes it).
  queue = await createJobQueue(t.database, {});
  queue.register({
    name: 'test.waiting',
    expireInSeconds: 60,
    retryLimit: 0,
    handle: async () => {},
  });
  await queue.prepare();
  await queue.send('test.waiting', { tenantId: null, correlationId: null, data: {} });
  metrics.watchQueues(() => readQueueStats(t.database.pool));
  server = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1' });

  repo = createGitRepository(POLYGLOT_FILES);
  tenant = await t.createTenant();
  const imported = await t.as(tenant.token, {
    method: 'POST',
    url: '/api/v1/repositories/import',
    payload: { repositories: [{ url: repo.url }] },
  });
  const repositoryId = imported.json().items[0].repositoryId;
  const queued = await t.as(tenant.token, {
    method: 'POST',
    url: `/api/v1/repositories/${repositoryId}/scan`,
  });
  expect(queued.statusCode).toBe(202);
  expect(await t.runJobs()).toContain(RUN_SCAN.name);
  const scan = await t.as(tenant.token, {
    method: 'GET',
    url: `/api/v1/scans/${queued.json().scanId}`,
  });
  expect(scan.json().state).toBe('completed');
  const scraped = await scrape();
  expect(scraped.statusCode).toBe(200);
  expect(scraped.headers['content-type']).toContain('text/plain');
  scrapedText = scraped.body;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await queue?.stop(5000);
  repo?.remove();
  await t?.close();
});

describe('GET /metrics after a scan', () => {
  it('counts requests by route pattern, never the raw URL', () => {
    const labels = { method: 'POST', route: '/api/v1/repositories/:repositoryId/scan' };
    expect(
      sample(scrapedText, 'driftwatch_http_requests_total', { ...labels, status: '202' }),
    ).toBe(1);
    expect(
      sample(scrapedText, 'driftwatch_http_request_duration_seconds_count', {
        ...labels,
        status: '202',
      }),
    ).toBe(1);
    expect(scrapedText).not.toMatch(/route="\/api\/v1\/scans\/[0-9a-f]{8}-/);
    expect(
      sample(scrapedText, 'driftwatch_http_requests_total', {
        route: '/api/v1/scans/:scanId',
        status: '200',
      }),
    ).toBe(1);
  });

  it('records the scan run with its outcome and the jobs by queue', () => {
    expect(
      sample(scrapedText, 'driftwatch_scan_duration_seconds_count', { outcome: 'completed' }),
    ).toBe(1);
    expect(
      sample(scrapedText, 'driftwatch_scan_duration_seconds_sum', { outcome: 'completed' }),
    ).toBeGreaterThanOrEqual(0);
    expect(
      sample(scrapedText, 'driftwatch_job_duration_seconds_count', {
        queue: RUN_SCAN.name,
        outcome: 'completed',
      }),
    ).toBe(1);
    // The scan's packages went to enrichment; no registry is configured in tests, so each is
    // reported as disabled.
    expect(
      sample(scrapedText, 'driftwatch_enrichment_duration_seconds_count', { job: 'enrich' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(scrapedText, 'driftwatch_enrichment_packages_total', {
        job: 'enrich',
        outcome: 'disabled',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('samples the pools and the job queues at scrape time', () => {
    const total = sample(scrapedText, 'driftwatch_db_pool_connections', { pool: 'main' });
    expect(total).toBeGreaterThanOrEqual(1);
    expect(sample(scrapedText, 'driftwatch_db_pool_idle_connections', { pool: 'main' })).toBe(
      total,
    );
    expect(sample(scrapedText, 'driftwatch_db_pool_waiting_clients', { pool: 'main' })).toBe(0);
    expect(sample(scrapedText, 'driftwatch_job_queue_read_ok')).toBe(1);
    expect(sample(scrapedText, 'driftwatch_job_queue_waiting', { queue: 'test.waiting' })).toBe(1);
    expect(sample(scrapedText, 'driftwatch_job_queue_active', { queue: 'test.waiting' })).toBe(0);
    expect(
      sample(scrapedText, 'driftwatch_job_queue_oldest_waiting_seconds', { queue: 'test.waiting' }),
    ).toBeGreaterThanOrEqual(0);
  });

  it('serves the same series on the metrics port', async () => {
    const response = await fetch(`${server.address}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(sample(text, 'driftwatch_scan_duration_seconds_count', { outcome: 'completed' })).toBe(
      1,
    );
    expect((await fetch(`${server.address}/other`)).status).toBe(404);
  });
});

describe('who may read /metrics on the API port', () => {
  it('refuses no token, a wrong token and a tenant token (401 problem)', async () => {
    const cases = [
      undefined,
      'Bearer operator-secret-for-tests-0123456788',
      `Bearer ${tenant.token}`,
    ];
    for (const authorization of cases) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('is not there without an operator token', async () => {
    const plain = await createTestApp({}, { database: t.database });
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await plain.app.close();
    }
  });

  it('counts rate-limit rejections by bucket', async () => {
    const limited = createMetrics({ processMetrics: false });
    const app = await createTestApp(
      { rateLimits: { tenantPerMinute: 1000, tokenPerMinute: 1000, ipPerMinute: 1 } },
      { database: t.database, metrics: limited },
    );
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await app.app.inject({ method: 'GET', url: '/api/v1' })).statusCode);
      }
      expect(statuses).toEqual([200, 429, 429]);
      const text = await limited.render();
      expect(sample(text, 'driftwatch_rate_limit_rejections_total', { bucket: 'ip' })).toBe(2);
      expect(
        sample(text, 'driftwatch_http_requests_total', { route: '/api/v1', status: '429' }),
      ).toBe(2);
    } finally {
      await app.app.close();
    }
  });
});
