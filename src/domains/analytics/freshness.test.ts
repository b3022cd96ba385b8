import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createPolicy,
  createTestApp,
  importJsonl,
  npmRange,
  osvRecord,
  storeScan,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { REFRESH_AFTER_MATCH, REFRESH_REPOSITORY_ROLLUPS } from './jobs';
import { utcDay } from './rollups';

/**
 * The dashboard and the trends follow every change that moves their numbers (a scan, a person's
 * triage, a policy's evaluation), through the events the changes emit, without the daily pass.
 */

let t: TestApp;
let tenant: TestTenant;
const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';
const MEDIUM = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N';

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant('team');
  await importJsonl(t, [
    osvRecord({
      id: 'GHSA-frsh-0000-0001',
      severity: CRITICAL,
      affected: [npmRange('fresh-pad', '0', '2.0.0')],
    }),
  ]);
});
afterAll(async () => t?.close());

const get = async (url: string) => {
  const res = await t.as(tenant.token, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const dashboard = () => get('/api/v1/dashboards/global');
/** Today's trend point: the gauges of today's daily row. */
const today = async () =>
  (await get(`/api/v1/analytics/trends?fromUtc=${utcDay(new Date())}T00:00:00Z`)).points.at(-1);
const times = (ran: string[], job: string) => ran.filter((name) => name === job).length;
/** The rollup refresh jobs among those that ran (either contract refreshes the same rows). */
const refreshes = (ran: string[]) =>
  times(ran, REFRESH_REPOSITORY_ROLLUPS.name) + times(ran, REFRESH_AFTER_MATCH.name);

describe('the rollups refresh on every change that moves a number', () => {
  test('a scan refreshes them once, after its exposures and violations are stored', async () => {
    await createPolicy(t, tenant.token, {
      name: 'no critical',
      condition: 'vulnerabilities.maxSeverityLevel >= 4',
      severity: 'high',
      action: 'warn',
    });
    await t.runJobs();
    await storeScan(
      t,
      tenant,
      'api',
      [
        { ecosystem: 'npm', name: 'fresh-pad', version: '1.0.0' },
        { ecosystem: 'npm', name: 'fresh-other', version: '1.0.0' },
      ],
      new Date(),
      false,
    );
    const ran = await t.runJobs();
    // Matching is followed by the evaluation, whose end refreshes the rollups: one refresh job
    // for the whole scan (the scan's matching starts none).
    expect(refreshes(ran)).toBe(1);
    expect(times(ran, REFRESH_REPOSITORY_ROLLUPS.name)).toBe(1);
    const body = await dashboard();
    expect(body.exposures.unresolved).toBe(1);
    expect(body.exposures.byStatus).toEqual({ open: 1 });
    expect(body.violations.open).toBe(1);
    expect(await today()).toMatchObject({ exposuresOpen: 1, violationsOpen: 1, dependencies: 2 });
  });

  test('triage of an exposure (PATCH) moves the dashboard and the trend', async () => {
    const exposures = await get('/api/v1/vulnerability-exposures');
    const exposureId = exposures.items[0].exposureId as string;
    // Still unresolved: no violation moves, the status change alone refreshes.
    const investigating = await t.as(tenant.token, {
      method: 'PATCH',
      url: `/api/v1/vulnerability-exposures/${exposureId}`,
      payload: { status: 'investigating' },
    });
    expect(investigating.statusCode, investigating.body).toBe(200);
    expect(times(await t.runJobs(), REFRESH_REPOSITORY_ROLLUPS.name)).toBe(1);
    expect((await dashboard()).exposures.byStatus).toEqual({ investigating: 1 });
    expect((await dashboard()).violations.open).toBe(1);

    const patch = await t.as(tenant.token, {
      method: 'PATCH',
      url: `/api/v1/vulnerability-exposures/${exposureId}`,
      payload: { status: 'not_affected', justification: 'code_not_reachable' },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    const ran = await t.runJobs();
    expect(ran).toContain(REFRESH_REPOSITORY_ROLLUPS.name);
    const body = await dashboard();
    expect(body.exposures.unresolved).toBe(0);
    expect(body.exposures.bySeverity.critical).toBe(0);
    expect(body.exposures.byStatus).toEqual({ not_affected: 1 });
    expect(body.topRepositories.byCriticalExposures).toEqual([]);
    expect(body.changes.exposuresUnresolved.current).toBe(0);
    // The status is a fact of policies: the violation resolved, and the trend saw both.
    expect(body.violations.open).toBe(0);
    expect(await today()).toMatchObject({ exposuresOpen: 0, exposuresCriticalOpen: 0 });
    expect((await today()).violationsOpen).toBe(0);
  });

  test("a policy's evaluation opening violations moves the counts and the trend", async () => {
    const before = await today();
    expect(before.violationsOpen).toBe(0);
    await createPolicy(t, tenant.token, {
      name: 'fresh packages',
      condition: 'dependency.name.startsWith("fresh-")',
      severity: 'low',
      action: 'warn',
    });
    const ran = await t.runJobs();
    expect(ran).toContain(REFRESH_REPOSITORY_ROLLUPS.name);
    const body = await dashboard();
    expect(body.violations).toMatchObject({ open: 2, bySeverity: { low: 2 } });
    expect(body.changes.violationsOpen.current).toBe(2);
    expect((await today()).violationsOpen).toBe(2);

    // A person's triage of a violation moves the trend too.
    const violations = await get('/api/v1/policy-violations');
    const violationId = violations.items[0].violationId as string;
    const dismissed = await t.as(tenant.token, {
      method: 'PATCH',
      url: `/api/v1/policy-violations/${violationId}`,
      payload: { status: 'dismissed', reason: 'accepted for now' },
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(await t.runJobs()).toContain(REFRESH_REPOSITORY_ROLLUPS.name);
    expect((await dashboard()).violations.open).toBe(1);
    expect((await today()).violationsOpen).toBe(1);
  });

  test("an advisory change's re-match refreshes them, outside any scan", async () => {
    const before = await dashboard();
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-frsh-0000-0002',
        severity: MEDIUM,
        affected: [npmRange('fresh-other', '0', '2.0.0')],
      }),
    ]);
    const ran = await t.runJobs();
    // The re-match's exposures.refreshed names no scan: it refreshes the rollups itself (its
    // evaluation moved no violation, so nothing else does).
    expect(times(ran, REFRESH_AFTER_MATCH.name)).toBe(1);
    expect(refreshes(ran)).toBe(1);
    const body = await dashboard();
    expect(body.exposures.unresolved).toBe(before.exposures.unresolved + 1);
    expect(body.exposures.bySeverity.medium).toBe(1);
    expect((await today()).exposuresOpen).toBe(1);
  });

  test("a repository's deletion refreshes them: its numbers leave the dashboard", async () => {
    expect((await dashboard()).dependencies.total).toBe(2);
    const { items } = await get('/api/v1/repositories');
    const deleted = await t.as(tenant.token, {
      method: 'DELETE',
      url: `/api/v1/repositories/${items[0].repositoryId}`,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    // Announced as repository.deleted, which the refresh subscribes to.
    expect(times(await t.runJobs(), REFRESH_REPOSITORY_ROLLUPS.name)).toBe(1);
    const body = await dashboard();
    expect(body.dependencies.total).toBe(0);
    expect(body.exposures.unresolved).toBe(0);
    expect(await today()).toMatchObject({ exposuresOpen: 0, dependencies: 0 });
  });

  test('another tenant sees none of it', async () => {
    const stranger = await t.createTenant('team');
    const res = await t.as(stranger.token, { method: 'GET', url: '/api/v1/dashboards/global' });
    expect(res.json().violations.open).toBe(0);
    expect(res.json().exposures.byStatus).toEqual({});
  });
});
