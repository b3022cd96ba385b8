import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createTestApp,
  importJsonl,
  npmRange,
  osvRecord,
  storeScan,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { tokenWithRole } from '../../../test/support/workspace';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import { DAILY_ROLLUPS, runDailyRollups } from './jobs';
import { ALL_REPOSITORIES, utcDay } from './rollups';
import { bucketStart, bucketsOf } from './trends';

let t: TestApp;
let tenant: TestTenant;
let repositoryId: string;
const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant('team');
  await importJsonl(t, [
    osvRecord({
      id: 'GHSA-anly-0000-0001',
      severity: CRITICAL,
      affected: [npmRange('left-pad', '0', '1.3.0')],
    }),
  ]);
  const scanned = await storeScan(
    t,
    tenant,
    'api',
    [
      { ecosystem: 'npm', name: 'left-pad', version: '1.0.0' },
      { ecosystem: 'npm', name: 'lodash', version: '4.17.20' },
      { ecosystem: 'PyPI', name: 'requests', version: '2.0.0' },
    ],
    new Date(),
    false,
  );
  repositoryId = scanned.repositoryId;
  await t.runJobs();
});
afterAll(async () => t?.close());

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });

describe('GET /api/v1/dashboards/global', () => {
  test('headline numbers come from the rollups the scan refreshed', async () => {
    const viewer = await tokenWithRole(t, tenant, 'viewer');
    const res = await get(viewer, '/api/v1/dashboards/global');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.repositories.total).toBe(1);
    expect(body.dependencies).toMatchObject({ total: 3, direct: 3, transitive: 0 });
    expect(body.dependencies.byEcosystem).toEqual([
      { ecosystem: 'npm', total: 2, direct: 2, transitive: 0 },
      { ecosystem: 'PyPI', total: 1, direct: 1, transitive: 0 },
    ]);
    expect(body.exposures.unresolved).toBe(1);
    expect(body.exposures.bySeverity.critical).toBe(1);
    expect(body.exposures.byStatus).toEqual({ open: 1 });
    expect(body.topRepositories.byCriticalExposures).toEqual([
      { repositoryId, name: 'api', critical: 1 },
    ]);
    expect(body.violations).toEqual({
      open: 0,
      bySeverity: { critical: 0, high: 0, medium: 0, low: 0 },
    });
    expect(body.alerts).toEqual({ open: 0 });
    // No history older than today yet: no change to report.
    expect(body.changes.dependencies).toEqual({ current: 3, change7d: null, change30d: null });
    // A tenant with nothing stored gets zeros, not another tenant's numbers.
    const empty = (
      await get((await t.createTenant('free')).token, '/api/v1/dashboards/global')
    ).json();
    expect(empty.repositories.total).toBe(0);
    expect(empty.dependencies).toEqual({ total: 0, direct: 0, transitive: 0, byEcosystem: [] });
    expect(empty.exposures.unresolved).toBe(0);
    expect(empty.drift.libyearTotal).toBe(0);
  });

  test('health score distribution: the packages in use, each once, by latest score', async () => {
    const ids = await t.database.system
      .selectFrom('packages')
      .select(['id', 'name'])
      .where('name', 'in', ['left-pad', 'lodash'])
      .execute();
    const idOf = (name: string) => ids.find((row) => row.name === name)?.id as string;
    const snapshot = (name: string, day: string, score: number) => ({
      package_id: idOf(name),
      snapshot_date: day,
      computed_at: new Date(),
      signals: '{}',
      default_score: score,
    });
    await t.database.system
      .insertInto('package_health_snapshots')
      .values([
        snapshot('left-pad', '2026-01-01', 90),
        snapshot('left-pad', utcDay(new Date()), 15),
        snapshot('lodash', utcDay(new Date()), 85),
      ])
      .onConflict((oc) => oc.doNothing())
      .execute();
    await runDailyRollups(t.jobDeps, tenant.tenantId);
    const body = (await get(tenant.token, '/api/v1/dashboards/global')).json();
    // left-pad's latest score (15), not its older 90; requests has no score yet.
    expect(body.healthScores).toEqual({
      packages: 3,
      buckets: [
        { from: 0, to: 19, packages: 1 },
        { from: 20, to: 39, packages: 0 },
        { from: 40, to: 59, packages: 0 },
        { from: 60, to: 79, packages: 0 },
        { from: 80, to: 100, packages: 1 },
      ],
      unscored: 1,
    });
    const stranger = await t.createTenant('team');
    const theirs = (await get(stranger.token, '/api/v1/dashboards/global')).json();
    expect(theirs.healthScores.packages).toBe(0);
  });

  test('changes over 7 and 30 days compare with the daily rollup of that day', async () => {
    const other = await t.createTenant('team');
    await storeScan(
      t,
      other,
      'svc',
      [{ ecosystem: 'npm', name: 'a', version: '1.0.0' }],
      new Date(),
      false,
    );
    await t.runJobs();
    const eightDaysAgo = utcDay(new Date(Date.now() - 8 * 86_400_000));
    const fortyDaysAgo = utcDay(new Date(Date.now() - 40 * 86_400_000));
    await withTenant(t.database, other.tenantId, (db) =>
      db
        .insertInto('analytics_daily')
        .values([
          {
            day: eightDaysAgo,
            repository_id: ALL_REPOSITORIES,
            ecosystem: '',
            dependencies: 4,
            fixes: '{}',
          },
          {
            day: fortyDaysAgo,
            repository_id: ALL_REPOSITORIES,
            ecosystem: '',
            dependencies: 10,
            fixes: '{}',
          },
        ])
        .execute(),
    );
    const body = (await get(other.token, '/api/v1/dashboards/global')).json();
    expect(body.changes.dependencies).toEqual({ current: 1, change7d: -3, change30d: -9 });
    // Each tenant sees only its own numbers.
    expect(body.exposures.unresolved).toBe(0);
    expect(body.repositories.total).toBe(1);
  });
});

describe('GET /api/v1/analytics/trends', () => {
  const url = (query: string) => `/api/v1/analytics/trends?${query}`;
  const today = () => utcDay(new Date());

  test('daily points with the scan, the opened exposure, and a fix with its time to fix', async () => {
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString();
    // Viewers read trends: the viewer's answer is the owner's.
    const viewer = await tokenWithRole(t, tenant, 'viewer', 'trends viewer');
    const seen = await get(viewer, url(`fromUtc=${from}&interval=day`));
    expect(seen.statusCode).toBe(200);
    let body = (await get(tenant.token, url(`fromUtc=${from}&interval=day`))).json();
    expect(seen.json().points).toEqual(body.points);
    expect(body.points).toHaveLength(3);
    const last = body.points.at(-1);
    expect(last.bucketStartUtc).toBe(`${today()}T00:00:00.000Z`);
    expect(last).toMatchObject({ dependencies: 3, exposuresOpened: 1, exposuresOpen: 1, scans: 1 });
    expect(body.points[0].dependencies).toBeNull();
    expect(last.exposuresOpenBySeverity).toEqual({ critical: 1, high: 0, medium: 0, low: 0 });
    expect(body.points[0].exposuresOpenBySeverity).toBeNull();

    // The vulnerable version goes: the exposure is fixed, today's row counts it.
    await storeScan(
      t,
      tenant,
      'api',
      [{ ecosystem: 'npm', name: 'lodash', version: '4.17.21' }],
      new Date(),
      false,
    );
    await t.runJobs();
    body = (await get(tenant.token, url(`fromUtc=${from}`))).json();
    const now = body.points.at(-1);
    expect(now).toMatchObject({ dependencies: 1, exposuresFixed: 1, exposuresOpen: 0 });
    expect(now.meanTimeToFixSeconds.critical).toEqual(expect.any(Number));
    expect(now.meanTimeToFixSeconds.high).toBeNull();
    expect(now.exposuresOpenBySeverity).toEqual({ critical: 0, high: 0, medium: 0, low: 0 });
  });

  test('filters: ecosystem and repository; another tenant’s repository is a 404', async () => {
    const pypi = (await get(tenant.token, url('ecosystem=Npm'))).json();
    expect(pypi.ecosystem).toBe('npm');
    expect(pypi.points.at(-1).dependencies).toBe(1);
    const repo = (
      await get(tenant.token, url(`repositoryId=${repositoryId}&interval=week`))
    ).json();
    expect(repo.points.at(-1).dependencies).toBe(1);
    expect(repo.points.at(-1).bucketStartUtc).toBe(`${bucketStart(today(), 'week')}T00:00:00.000Z`);
    const stranger = await t.createTenant('team');
    expect((await get(stranger.token, url(`repositoryId=${repositoryId}`))).statusCode).toBe(404);
    const theirs = (await get(stranger.token, url('interval=month'))).json();
    expect(theirs.points.every((p: { dependencies: number | null }) => !p.dependencies)).toBe(true);
  });

  test("libyear per ecosystem: each ecosystem its dependencies' years, all of them the total once", async () => {
    const drifting = await t.createTenant('team');
    const scanned = await storeScan(
      t,
      drifting,
      'old',
      [
        { ecosystem: 'npm', name: 'aged-npm', version: '1.0.0' },
        { ecosystem: 'PyPI', name: 'aged-py', version: '1.0.0' },
      ],
      new Date(),
      false,
    );
    await t.runJobs();
    const packages = await t.database.system
      .selectFrom('packages')
      .select(['id', 'name'])
      .where('name', 'in', ['aged-npm', 'aged-py'])
      .execute();
    const idOf = (name: string) => packages.find((row) => row.name === name)?.id as string;
    const scanId = newId();
    await withTenant(t.database, drifting.tenantId, async (db) => {
      const counts = { major_behind: 0, minor_behind: 0, patch_behind: 0 };
      await db
        .insertInto('repository_drift')
        .values({
          repository_id: scanned.repositoryId,
          scan_id: scanId,
          scanned_at: new Date(),
          computed_at: new Date(),
          dependency_count: 2,
          measured_count: 2,
          pending_count: 0,
          outdated_count: 2,
          libyear_total: 3.5,
          ...counts,
          deprecated_count: 0,
          yanked_count: 0,
          end_of_life_count: 0,
        })
        .execute();
      const drift = (name: string, libyear: number) => ({
        repository_id: scanned.repositoryId,
        scan_id: scanId,
        package_id: idOf(name),
        used_version: '1.0.0',
        resolution: 'exact',
        state: 'measured' as const,
        compared_version: '1.0.0',
        latest_stable: '2.0.0',
        libyear,
        ...counts,
        deprecated: false,
        yanked: false,
        end_of_life: false,
      });
      await db
        .insertInto('dependency_drift')
        .values([drift('aged-npm', 1.25), drift('aged-py', 2.25)])
        .execute();
    });
    await runDailyRollups(t.jobDeps, drifting.tenantId);
    const libyearOf = async (query: string) =>
      (await get(drifting.token, url(query))).json().points.at(-1).libyear;
    expect(await libyearOf('ecosystem=npm')).toBe(1.25);
    expect(await libyearOf('ecosystem=PyPI')).toBe(2.25);
    expect(await libyearOf('interval=day')).toBe(3.5);
    const dashboard = (await get(drifting.token, '/api/v1/dashboards/global')).json();
    expect(dashboard.drift.libyearTotal).toBe(3.5);
  });

  test('bad parameters are 400 problems naming the field', async () => {
    const cases: [string, string][] = [
      ['interval=hour', 'interval'],
      ['ecosystem=cobol', 'ecosystem'],
      ['fromUtc=yesterday', 'fromUtc'],
      ['repositoryId=nope', 'repositoryId'],
      ['fromUtc=2026-02-01T00:00:00Z&toUtc=2026-01-01T00:00:00Z', 'fromUtc'],
      ['fromUtc=2000-01-01T00:00:00Z&toUtc=2026-01-01T00:00:00Z&interval=day', 'fromUtc'],
      [`fromUtc=${new Date(Date.now() + 86_400_000 * 3).toISOString()}`, 'fromUtc'],
    ];
    for (const [query, field] of cases) {
      const res = await get(tenant.token, url(query));
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(Object.keys(res.json().errors ?? {}).join(), query).toContain(field);
    }
  });

  test('buckets: weeks start on Monday, months on the first, capped in number', () => {
    expect(bucketStart('2026-11-26', 'week')).toBe('2026-11-23');
    expect(bucketStart('2026-11-23', 'week')).toBe('2026-11-23');
    expect(bucketStart('2026-11-26', 'month')).toBe('2026-11-01');
    expect(
      bucketsOf(new Date('2026-01-15T10:00:00Z'), new Date('2026-03-02T00:00:00Z'), 'month'),
    ).toEqual(['2026-01-01', '2026-02-01', '2026-03-01']);
    expect(() => bucketsOf(new Date('2000-01-01'), new Date('2026-01-01'), 'day')).toThrow();
  });

  test('the daily job writes yesterday and today for the tenant and each repository', async () => {
    const daily = (await import('../../background-jobs'))
      .jobDefinitions(t.jobDeps)
      .find((job) => job.name === DAILY_ROLLUPS.name);
    await daily?.handle({ version: 1, tenantId: null, correlationId: null, data: {} });
    const rows = await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .selectFrom('analytics_daily')
        .select(['repository_id', 'ecosystem', 'dependencies'])
        .select((eb) => eb.cast<string>('day', 'text').as('day'))
        .where('repository_id', '=', repositoryId)
        .where('ecosystem', '=', '')
        .orderBy('day')
        .execute(),
    );
    const yesterday = utcDay(new Date(Date.now() - 86_400_000));
    expect(rows.map((row) => row.day)).toEqual([yesterday, today()]);
    expect(rows.at(-1)?.dependencies).toBe(1);
  });
});

describe('the per-tenant summary', () => {
  test('the dashboard reads the summary the rollups wrote; a refresh rewrites it', async () => {
    const viewer = tenant.token;
    const stored = await withTenant(t.database, tenant.tenantId, (db) =>
      db.selectFrom('analytics_tenant_summary').select('data').executeTakeFirstOrThrow(),
    );
    const summary = stored.data as { totals: { dependencies: number } };
    const before = (await get(viewer, '/api/v1/dashboards/global')).json();
    expect(summary.totals.dependencies).toBe(before.dependencies.total);
    // Served from the stored row: a change to it shows, the state rows are not summed again.
    await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .updateTable('analytics_tenant_summary')
        .set({
          data: JSON.stringify({ ...summary, totals: { ...summary.totals, dependencies: 999 } }),
        })
        .execute(),
    );
    expect((await get(viewer, '/api/v1/dashboards/global')).json().dependencies.total).toBe(999);
    await runDailyRollups(t.jobDeps, tenant.tenantId);
    const after = (await get(viewer, '/api/v1/dashboards/global')).json();
    expect(after.dependencies.total).toBe(before.dependencies.total);
    // Another tenant has its own row (or none): never this one's numbers.
    const other = await t.createTenant('team');
    expect((await get(other.token, '/api/v1/dashboards/global')).json().dependencies.total).toBe(0);
  });
});
