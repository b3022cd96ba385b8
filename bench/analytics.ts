/**
 * `npm run bench:analytics`: dashboards and trends of a large tenant on PostgreSQL.
 *
 * Generates one tenant with 10,000 repositories, one completed scan each and 1,000,000
 * dependency rows (100 per repository, two ecosystems), a drift snapshot per repository, builds
 * the rollups with the daily pass (src/domains/analytics), and copies the day's rows back over
 * the previous days (a year of tenant rows, BENCH_REPO_HISTORY_DAYS of per-repository rows) so
 * that the trend queries read a realistic history. Then measures p50/p99 through the whole HTTP
 * pipeline (auth, tenant scope, validation, serialisation) of GET /api/v1/dashboards/global and
 * GET /api/v1/analytics/trends in several shapes, against an authenticated one-row read
 * (GET /api/v1/tenants/current/scoring-weights) as the baseline. Needs TEST_DATABASE_URL.
 * Results go to docs/benchmarks.md, section "Analytics (npm run bench:analytics)".
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { runDailyRollups } from '../src/domains/analytics/jobs';
import { utcDay } from '../src/domains/analytics/rollups';
import { createTestApp } from '../test/support/test-app';
import { writeBenchmarkSection } from './report';

const REPOSITORIES = Number(process.env.BENCH_REPOSITORIES ?? 10_000);
const DEPS_PER_REPOSITORY = Number(process.env.BENCH_DEPS_PER_REPOSITORY ?? 100);
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
    await sql`INSERT INTO packages (id, ecosystem, name, purl)
      SELECT gen_random_uuid(), CASE WHEN i % 4 = 0 THEN 'PyPI' ELSE 'npm' END, 'bench-' || i,
        CASE WHEN i % 4 = 0 THEN 'pkg:pypi/bench-' ELSE 'pkg:npm/bench-' END || i
      FROM generate_series(1, 20000) i`.execute(db);
    await sql`INSERT INTO repositories (tenant_id, id, provider, name, full_name, clone_url, business_criticality)
      SELECT ${tenantId}::uuid, gen_random_uuid(), 'git', 'repo-' || i, 'bench/repo-' || i,
        'https://git.example.test/bench/repo-' || i || '.git',
        (ARRAY['low', 'medium', 'high', 'critical'])[1 + i % 4]
      FROM generate_series(1, ${REPOSITORIES}) i`.execute(db);
    await sql`INSERT INTO scans (tenant_id, id, repository_id, state, trigger, queued_at, started_at, finished_at, counts_by_ecosystem)
      SELECT tenant_id, gen_random_uuid(), id, 'completed', 'manual', now(), now(), now(), '{"npm": 75, "PyPI": 25}'
      FROM repositories WHERE tenant_id = ${tenantId}::uuid`.execute(db);
    await sql`UPDATE repositories r SET last_scan_id = s.id, dependency_scan_id = s.id, last_scanned_at = now()
      FROM scans s WHERE s.tenant_id = r.tenant_id AND s.repository_id = r.id AND r.tenant_id = ${tenantId}::uuid`.execute(
      db,
    );
    await sql`INSERT INTO repository_dependency_rows (tenant_id, id, repository_id, scan_id, package_id,
        ecosystem, name, version, resolution, purl, scope, direct, file)
      SELECT s.tenant_id, gen_random_uuid(), s.repository_id, s.id, p.id, p.ecosystem, p.name, '1.0.0',
        'resolved', p.purl || '@1.0.0', 'runtime', n % 5 = 0, 'package-lock.json'
      FROM scans s
      CROSS JOIN LATERAL generate_series(1, ${DEPS_PER_REPOSITORY}) n
      JOIN LATERAL (SELECT id, ecosystem, name, purl FROM packages
                    WHERE name = 'bench-' || (1 + (abs(hashtext(s.repository_id::text)) + n * 37) % 20000)) p ON true
      WHERE s.tenant_id = ${tenantId}::uuid`.execute(db);
    await sql`INSERT INTO repository_drift (tenant_id, repository_id, scan_id, scanned_at, computed_at,
        dependency_count, measured_count, pending_count, outdated_count, libyear_total, major_behind,
        minor_behind, patch_behind, deprecated_count, yanked_count, end_of_life_count)
      SELECT tenant_id, repository_id, id, now(), now(), ${DEPS_PER_REPOSITORY}, ${DEPS_PER_REPOSITORY}, 0,
        40, random() * 200, 10, 15, 15, 2, 0, 1
      FROM scans WHERE tenant_id = ${tenantId}::uuid`.execute(db);
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
    const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString();
    const shapes: [string, string][] = [
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
    lines.push(
      `Tenant: ${REPOSITORIES.toLocaleString('en')} repositories, ${Number(deps.rows[0]?.n).toLocaleString('en')} dependency rows (generated in ${generated.toFixed(0)} s); daily pass (state + two days of rows for every scope) ${dailyPass.toFixed(1)} s; ${Number(rollupRows.rows[0]?.n).toLocaleString('en')} daily rollup rows (a year of tenant rows, ${REPO_HISTORY_DAYS} days of per-repository rows). ${REQUESTS} requests per shape after ${WARMUP} warm-up, sequential, through \`app.inject\` (the whole pipeline), PostgreSQL on 127.0.0.1, machine shared with other work.`,
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
    console.info(lines.join('\n'));
    writeBenchmarkSection('Analytics (npm run bench:analytics)', lines.join('\n'));
    if (failed) process.exitCode = 1;
  } finally {
    await t.close();
  }
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
