import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type FakeRegistries,
  startFakeRegistries,
} from '../../../test/support/fake-registries/index';
import {
  createTestApp,
  storeScan,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { jobDefinitions } from '../../background-jobs';
import { withTenant } from '../../db/tenant-scope';
import { MATCH_DEPENDENCIES } from '../exposures/jobs';
import { DEPENDENCIES_CHANGED, REFRESH } from '../packages/jobs';
import { EVALUATE_REPOSITORY } from '../policies/jobs';
import { REFRESH_AFTER_MATCH, REFRESH_REPOSITORY_ROLLUPS, runDailyRollups } from './jobs';
import { ALL_REPOSITORIES, utcDay } from './rollups';

/**
 * The dashboard's dependency, drift and ranking numbers from real scans: dependencies stored the
 * way a scan stores them, drift computed by the package jobs from the fake registries' metadata.
 */

let t: TestApp;
let fake: FakeRegistries;
let tenant: TestTenant;
const repositories: Record<'old' | 'fresh', string> = { old: '', fresh: '' };

interface DriftItem {
  libyearTotal: number;
  majorBehind: number;
  minorBehind: number;
  patchBehind: number;
  deprecatedCount: number;
  endOfLifeCount: number;
}

beforeAll(async () => {
  fake = await startFakeRegistries();
  t = await createTestApp({ registries: fake.settings() });
  tenant = await t.createTenant('team');
  // left-pad 1.1.0: two minors behind 1.3.0, deprecated; @acme/widget 1.0.0: a major and two
  // patches behind 2.0.0, its superseded 1.x line idle since 2023; Old_Package 0.9 (transitive):
  // a major behind, the package deprecated.
  const old = await storeScan(t, tenant, 'old', [
    { ecosystem: 'npm', name: 'left-pad', version: '1.1.0' },
    { ecosystem: 'npm', name: '@acme/widget', version: '1.0.0' },
    { ecosystem: 'PyPI', name: 'Old_Package', version: '0.9', direct: false },
  ]);
  // left-pad 1.3.0: latest, still deprecated; requests 2.31.0 (transitive): a minor behind.
  const fresh = await storeScan(t, tenant, 'fresh', [
    { ecosystem: 'npm', name: 'left-pad', version: '1.3.0' },
    { ecosystem: 'PyPI', name: 'requests', version: '2.31.0', direct: false },
  ]);
  repositories.old = old.repositoryId;
  repositories.fresh = fresh.repositoryId;
  // The package jobs ran (drift snapshots with the metadata fetched); the rollups from them.
  await runDailyRollups(t.jobDeps, tenant.tenantId);
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const get = async (url: string) => {
  const res = await t.as(tenant.token, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** The repository's latest drift snapshot, as its own route reports it. */
const driftOf = async (repositoryId: string): Promise<DriftItem> =>
  (await get(`/api/v1/repositories/${repositoryId}/drift-history?take=1`)).items[0];

describe('dashboard numbers from scanned data', () => {
  test('dependencies: direct and transitive, in total and by ecosystem', async () => {
    const body = await get('/api/v1/dashboards/global');
    expect(body.dependencies).toEqual({
      total: 5,
      direct: 3,
      transitive: 2,
      byEcosystem: [
        { ecosystem: 'npm', total: 3, direct: 3, transitive: 0 },
        { ecosystem: 'PyPI', total: 2, direct: 0, transitive: 2 },
      ],
    });
  });

  test('drift: the sums of the repositories’ latest snapshots', async () => {
    const old = await driftOf(repositories.old);
    const fresh = await driftOf(repositories.fresh);
    // The snapshots themselves, from the registries' version histories.
    expect(old).toMatchObject({ majorBehind: 2, minorBehind: 2, patchBehind: 2 });
    expect(fresh).toMatchObject({ majorBehind: 0, minorBehind: 1, patchBehind: 0 });
    expect(old.deprecatedCount).toBeGreaterThanOrEqual(2);
    expect(old.endOfLifeCount).toBeGreaterThanOrEqual(2);
    expect(fresh.deprecatedCount).toBe(1);
    const { drift } = await get('/api/v1/dashboards/global');
    expect(drift).toEqual({
      libyearTotal: expect.closeTo(old.libyearTotal + fresh.libyearTotal, 3),
      majorBehind: 2,
      minorBehind: 3,
      patchBehind: 2,
      deprecated: old.deprecatedCount + fresh.deprecatedCount,
      endOfLife: old.endOfLifeCount + fresh.endOfLifeCount,
    });
    expect(drift.libyearTotal).toBeGreaterThan(4);
  });

  test('top repositories by libyear: each its snapshot’s libyear, most first', async () => {
    const old = await driftOf(repositories.old);
    const fresh = await driftOf(repositories.fresh);
    expect(old.libyearTotal).toBeGreaterThan(fresh.libyearTotal);
    expect(fresh.libyearTotal).toBeGreaterThan(0);
    const body = await get('/api/v1/dashboards/global');
    expect(body.topRepositories.byLibyear).toEqual([
      { repositoryId: repositories.old, name: 'old', libyear: old.libyearTotal },
      { repositoryId: repositories.fresh, name: 'fresh', libyear: fresh.libyearTotal },
    ]);
  });

  test('changes: repositories, alerts and drift against the daily row of a week ago', async () => {
    await runDailyRollups(t.jobDeps, tenant.tenantId);
    const todays = await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .selectFrom('analytics_daily')
        .selectAll()
        .where('repository_id', '=', ALL_REPOSITORIES)
        .where('ecosystem', '=', '')
        .where('day', '=', utcDay(new Date()))
        .executeTakeFirstOrThrow(),
    );
    expect(todays).toMatchObject({
      repositories: 2,
      alerts_open: 0,
      major_behind: 2,
      minor_behind: 3,
      patch_behind: 2,
    });
    const daysAgo = (days: number) => utcDay(new Date(Date.now() - days * 86_400_000));
    await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .insertInto('analytics_daily')
        .values([
          // A row from before these were kept (null): no change to report against it.
          { day: daysAgo(40), repository_id: ALL_REPOSITORIES, ecosystem: '', fixes: '{}' },
          {
            day: daysAgo(8),
            repository_id: ALL_REPOSITORIES,
            ecosystem: '',
            fixes: '{}',
            repositories: 1,
            alerts_open: 3,
            major_behind: 5,
            minor_behind: 1,
            patch_behind: 2,
            deprecated: 0,
            end_of_life: 1,
            dependencies: 4,
          },
        ])
        .execute(),
    );
    const { changes, drift } = await get('/api/v1/dashboards/global');
    expect(changes.repositories).toEqual({ current: 2, change7d: 1, change30d: null });
    expect(changes.alertsOpen).toEqual({ current: 0, change7d: -3, change30d: null });
    expect(changes.majorBehind).toEqual({ current: 2, change7d: -3, change30d: null });
    expect(changes.minorBehind).toEqual({ current: 3, change7d: 2, change30d: null });
    expect(changes.patchBehind).toEqual({ current: 2, change7d: 0, change30d: null });
    expect(changes.deprecated).toEqual({
      current: drift.deprecated,
      change7d: drift.deprecated,
      change30d: null,
    });
    expect(changes.endOfLife).toEqual({
      current: drift.endOfLife,
      change7d: drift.endOfLife - 1,
      change30d: null,
    });
    expect(changes.dependencies).toEqual({ current: 5, change7d: 1, change30d: 5 });
  });

  test('drift arriving after the scan (enrichment) refreshes the rollups by itself', async () => {
    const late = await t.createTenant('team');
    const scanned = await storeScan(
      t,
      late,
      'late',
      [{ ecosystem: 'Maven', name: 'org.example:core-lib', version: '1.0' }],
      new Date(),
      false,
    );
    // The scan's chain runs while the package's metadata is still missing (its fetch is lost).
    await t.runJobs({
      only: [
        MATCH_DEPENDENCIES.name,
        DEPENDENCIES_CHANGED.name,
        EVALUATE_REPOSITORY.name,
        REFRESH_AFTER_MATCH.name,
        REFRESH_REPOSITORY_ROLLUPS.name,
      ],
    });
    const dashboardOf = async () =>
      (await t.as(late.token, { method: 'GET', url: '/api/v1/dashboards/global' })).json();
    expect((await dashboardOf()).drift).toMatchObject({ majorBehind: 0, libyearTotal: 0 });
    // The package refresh fetches what is due and completes the waiting snapshot.
    const refresh = jobDefinitions(t.jobDeps).find((job) => job.name === REFRESH.name);
    await refresh?.handle({ version: 1, tenantId: null, correlationId: null, data: {} });
    expect(await t.runJobs()).toContain(REFRESH_REPOSITORY_ROLLUPS.name);
    const snapshot = (
      await t.as(late.token, {
        method: 'GET',
        url: `/api/v1/repositories/${scanned.repositoryId}/drift-history?take=1`,
      })
    ).json().items[0] as DriftItem;
    expect(snapshot.majorBehind).toBe(1);
    const { drift } = await dashboardOf();
    expect(drift).toMatchObject({ majorBehind: 1, libyearTotal: snapshot.libyearTotal });
    expect(drift.libyearTotal).toBeGreaterThan(1);
  });
});
