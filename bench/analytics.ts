/**
 * `npm run bench:analytics`: dashboards and trends of a large tenant on PostgreSQL.
 *
 * Generates one tenant (bench/analytics-data.ts) with 10,000 repositories, one completed scan
 * each, 1,000,000 dependency rows (100 per repository, two ecosystems), a drift snapshot per
 * repository, 200,000 policy violations (160,000 open) and 20,000 alerts (13,334 open), builds
 * the rollups with the daily pass (src/domains/analytics), and copies the day's rows back over
 * the previous days (a year of tenant rows, BENCH_REPO_HISTORY_DAYS of per-repository rows) so
 * that the trend queries read a realistic history. Then measures p50/p99 through the whole HTTP
 * pipeline (auth, tenant scope, validation, serialisation) of GET /api/v1/dashboards/global and
 * GET /api/v1/analytics/trends in several shapes, against an authenticated one-row read
 * (GET /api/v1/tenants/current/scoring-weights) as the baseline. Needs TEST_DATABASE_URL.
 * BENCH_EXPLAIN=1 prints every query of the dashboard and of each trend shape with its
 * EXPLAIN ANALYZE plan at this size (bench/analytics-explain.ts) before measuring.
 * Results go to docs/benchmarks.md, section "Analytics (npm run bench:analytics)".
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { refreshRepositoryRollups, runDailyRollups } from '../src/domains/analytics/jobs';
import { utcDay } from '../src/domains/analytics/rollups';
import type { TrendInterval, TrendQuery } from '../src/domains/analytics/trends';
import { createTestApp } from '../test/support/test-app';
import { generateAnalyticsTenant } from './analytics-data';
import { explainAnalytics } from './analytics-explain';
import { median, writeBenchmarkSection } from './report';

const REPOSITORIES = Number(process.env.BENCH_REPOSITORIES ?? 10_000);
const DEPS_PER_REPOSITORY = Number(process.env.BENCH_DEPS_PER_REPOSITORY ?? 100);
const VIOLATIONS_PER_REPOSITORY = Number(process.env.BENCH_VIOLATIONS_PER_REPOSITORY ?? 20);
const ALERTS = Number(process.env.BENCH_ALERTS ?? 20_000);
const REPO_HISTORY_DAYS = Number(process.env.BENCH_REPO_HISTORY_DAYS ?? 30);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const LIMIT_MS = 100;

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

async function main(): Promise<void> {
  if (!process.env.TEST_DATABASE_URL) {
    console.error('bench:analytics needs TEST_DATABASE_URL (a PostgreSQL server).');
    process.exit(2);
  }
  const t = await createTestApp({
    rateLimits: {
      tenantPerMinute: 10_000_000,
      tokenPerMinute: 10_000_000,
      ipPerMinute: 10_000_000,
    },
  });
  const lines: string[] = [];
  try {
    const tenant = await t.createTenant('enterprise', 'Bench');
    const db = t.database.system;
    const tenantId = tenant.tenantId;
    let started = performance.now();
    await generateAnalyticsTenant(db, tenantId, {
      repositories: REPOSITORIES,
      dependenciesPerRepository: DEPS_PER_REPOSITORY,
      violationsPerRepository: VIOLATIONS_PER_REPOSITORY,
      alerts: ALERTS,
    });
    await sql`ANALYZE`.execute(db);
    const generated = (performance.now() - started) / 1000;
    const deps = await sql<{ n: string }>`SELECT count(*) AS n FROM repository_dependencies
      WHERE tenant_id = ${tenantId}::uuid`.execute(db);

    started = performance.now();
    await runDailyRollups(t.jobDeps, tenantId);
    const dailyPass = (performance.now() - started) / 1000;
    // Exposure counts per status as a large tenant would have them (the JSON the dashboard sums).
    await sql`UPDATE analytics_repository_state SET exposures_by_status =
        jsonb_build_object('open', 3, 'investigating', 1, 'fixed', 7, 'accepted_risk', 1),
        exposures_critical = 1, exposures_high = 2
      WHERE tenant_id = ${tenantId}::uuid AND ecosystem <> '*'`.execute(db);
    await copyHistory(t, tenantId);
    await sql`ANALYZE`.execute(db);
    const rollupRows = await sql<{ n: string }>`SELECT count(*) AS n FROM analytics_daily
      WHERE tenant_id = ${tenantId}::uuid`.execute(db);

    const repository = await sql<{ id: string }>`SELECT id FROM repositories
      WHERE tenant_id = ${tenantId}::uuid LIMIT 1`.execute(db);
    const repositoryId = repository.rows[0]?.id;
    const refreshMs = await timeRefresh(t, tenantId, repositoryId);
    const shapes = requestShapes(repositoryId);
    if (process.env.BENCH_EXPLAIN) await printPlans(t, tenantId, repositoryId);
    const loadBefore = loadavg()[0] ?? 0;
    lines.push(
      `Tenant: ${REPOSITORIES.toLocaleString('en')} repositories, ${Number(deps.rows[0]?.n).toLocaleString('en')} dependency rows, ${(REPOSITORIES * VIOLATIONS_PER_REPOSITORY).toLocaleString('en')} policy violations, ${ALERTS.toLocaleString('en')} alerts (generated in ${generated.toFixed(0)} s); daily pass (state + two days of rows for every scope) ${dailyPass.toFixed(1)} s; one change's refresh (a repository's rollups, the tenant's day and summary; the job every scan, triage PATCH and violation change queues) ${median(refreshMs).toFixed(0)} ms (median of 5); ${Number(rollupRows.rows[0]?.n).toLocaleString('en')} daily rollup rows (a year of tenant rows, ${REPO_HISTORY_DAYS} days of per-repository rows). ${REQUESTS} requests per shape after ${WARMUP} warm-up, sequential, through \`app.inject\` (the whole pipeline), PostgreSQL on 127.0.0.1, machine shared with other work.`,
      '',
      '| Request | p50 ms | p99 ms | under 100 ms p99 |',
      '|---|---|---|---|',
    );
    let failed = false;
    for (const [label, url] of shapes) {
      const times: number[] = [];
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const start = performance.now();
        const res = await t.as(tenant.token, { method: 'GET', url });
        const elapsed = performance.now() - start;
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
        if (i >= WARMUP) times.push(elapsed);
      }
      times.sort((a, b) => a - b);
      const p99 = percentile(times, 99);
      const ok = p99 < LIMIT_MS;
      if (!label.startsWith('baseline') && !ok) failed = true;
      lines.push(
        `| ${label} | ${percentile(times, 50).toFixed(1)} | ${p99.toFixed(1)} | ${ok ? 'yes' : 'no'} |`,
      );
    }
    lines.push(
      '',
      `Machine load average (1 min, 2 cores): ${loadBefore.toFixed(1)} when the measurement started, ${(loadavg()[0] ?? 0).toFixed(1)} when it ended.`,
    );
    console.info(lines.join('\n'));
    writeBenchmarkSection('Analytics (npm run bench:analytics)', lines.join('\n'));
    if (failed) process.exitCode = 1;
  } finally {
    await t.close();
  }
}

type BenchApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * What every change that moves a number costs (a scan, a triage PATCH, a violation change): one
 * repository's rollups, the tenant's sums for today and its summary row; five runs.
 */
async function timeRefresh(t: BenchApp, tenantId: string, repositoryId: string | undefined) {
  const refreshMs: number[] = [];
  for (let i = 0; i < 5 && repositoryId; i++) {
    const started = performance.now();
    await refreshRepositoryRollups(t.jobDeps, tenantId, repositoryId);
    refreshMs.push(performance.now() - started);
  }
  return refreshMs;
}

/** The request shapes timed, labelled as in the table. */
function requestShapes(repositoryId: string | undefined): [string, string][] {
  const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString();
  return [
    [
      'baseline: GET /api/v1/tenants/current/scoring-weights',
      '/api/v1/tenants/current/scoring-weights',
    ],
    ['GET /api/v1/dashboards/global', '/api/v1/dashboards/global'],
    ['trends, 30 days by day', '/api/v1/analytics/trends'],
    ['trends, a year by week', `/api/v1/analytics/trends?interval=week&fromUtc=${yearAgo}`],
    [
      'trends, a year by day, ecosystem=PyPI',
      `/api/v1/analytics/trends?ecosystem=PyPI&fromUtc=${yearAgo}`,
    ],
    ['trends, 30 days, one repository', `/api/v1/analytics/trends?repositoryId=${repositoryId}`],
  ];
}

/** BENCH_EXPLAIN=1: the plans of each trend shape's queries. */
async function printPlans(t: BenchApp, tenantId: string, repositoryId: string | undefined) {
  const now = new Date();
  const since = (days: number) => new Date(now.getTime() - days * 86_400_000);
  const query = (days: number, interval: TrendInterval, more: Partial<TrendQuery> = {}) => ({
    from: since(days),
    to: now,
    interval,
    repositoryId: undefined,
    ecosystem: undefined,
    ...more,
  });
  console.info(
    await explainAnalytics(t.database, tenantId, [
      ['trends, 30 days by day', query(30, 'day')],
      ['trends, a year by week', query(365, 'week')],
      ['trends, a year by day, ecosystem=PyPI', query(365, 'day', { ecosystem: 'PyPI' })],
      ['trends, 30 days, one repository', query(30, 'day', { repositoryId })],
    ]),
  );
}

/** Today's rows copied to earlier days: a year of tenant rows, a month of repository rows. */
async function copyHistory(t: Awaited<ReturnType<typeof createTestApp>>, tenantId: string) {
  const today = utcDay(new Date());
  await sql`INSERT INTO analytics_daily (tenant_id, day, repository_id, ecosystem, dependencies, direct,
      libyear, exposures_unresolved, exposures_critical, violations_open, exposures_opened,
      exposures_fixed, fixes, scans)
    SELECT d.tenant_id, d.day - back, d.repository_id, d.ecosystem, d.dependencies - back, d.direct,
      d.libyear, d.exposures_unresolved, d.exposures_critical, d.violations_open, back % 7, back % 5,
      '{"critical": {"count": 1, "seconds": 86400}}'::jsonb, d.scans
    FROM analytics_daily d
    CROSS JOIN generate_series(2, 365) back
    WHERE d.tenant_id = ${tenantId}::uuid AND d.day = ${today}::date
      AND (d.repository_id = '00000000-0000-0000-0000-000000000000' OR back <= ${REPO_HISTORY_DAYS})
    ON CONFLICT DO NOTHING`.execute(t.database.system);
}

await main();
