import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createTestApp,
  insertRepository,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import { cancelScan, claimScan, completeScan, failScan, insertQueuedScan } from '../scans/store';
import { recountCounts } from './counts';
import { runDailyRollups } from './jobs';

let t: TestApp;
let tenant: TestTenant;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant('team');
});
afterAll(async () => t?.close());

type Dashboard = {
  repositories: {
    total: number;
    byCriticality: Record<string, number>;
    byLastScanState: Record<string, number>;
  };
  violations: { open: number; bySeverity: Record<string, number> };
  alerts: { open: number };
  changes: { violationsOpen: { current: number } };
};

const dashboardOf = async (who: TestTenant): Promise<Dashboard> => {
  const res = await t.as(who.token, { method: 'GET', url: '/api/v1/dashboards/global' });
  expect(res.statusCode).toBe(200);
  return res.json();
};

/** The numbers as the dashboard counted them live before the counts were kept. */
async function countedLive(who: TestTenant) {
  return withTenant(t.database, who.tenantId, async (db) => {
    const repositories = await sql<{ criticality: string | null; state: string | null; n: number }>`
      SELECT r.business_criticality AS criticality, s.state, count(*)::int AS n FROM repositories r
      LEFT JOIN scans s ON s.id = r.last_finished_scan_id GROUP BY 1, 2`.execute(db);
    const violations = await sql<{
      severity: string;
      n: number;
    }>`SELECT severity, count(*)::int AS n
      FROM policy_violations WHERE status = 'open' GROUP BY 1`.execute(db);
    const alerts = await sql<{ n: number }>`SELECT count(*)::int AS n FROM alerts
      WHERE status = 'open'`.execute(db);
    const byCriticality: Record<string, number> = { critical: 0, high: 0, medium: 0, low: 0 };
    byCriticality.unset = 0;
    const byLastScanState: Record<string, number> = { never: 0, completed: 0 };
    Object.assign(byLastScanState, { failed: 0, cancelled: 0 });
    for (const row of repositories.rows) {
      const criticality = row.criticality ?? 'unset';
      byCriticality[criticality] = (byCriticality[criticality] ?? 0) + row.n;
      const state = row.state ?? 'never';
      byLastScanState[state] = (byLastScanState[state] ?? 0) + row.n;
    }
    const bySeverity: Record<string, number> = { critical: 0, high: 0, medium: 0, low: 0 };
    for (const row of violations.rows) bySeverity[row.severity] = row.n;
    const total = repositories.rows.reduce((sum, row) => sum + row.n, 0);
    const open = violations.rows.reduce((sum, row) => sum + row.n, 0);
    return {
      repositories: { total, byCriticality, byLastScanState },
      violations: { open, bySeverity },
      alerts: { open: alerts.rows[0]?.n ?? 0 },
    };
  });
}

/** The dashboard's counts equal a live count, before and after the jobs fold and recount. */
async function expectExact(who: TestTenant) {
  const live = await countedLive(who);
  const check = async () => {
    const body = await dashboardOf(who);
    expect({
      repositories: body.repositories,
      violations: body.violations,
      alerts: body.alerts,
    }).toEqual(live);
    expect(body.changes.violationsOpen.current).toBe(live.violations.open);
  };
  await check(); // pending changes, not folded yet
  await t.runJobs();
  await check();
  await withTenant(t.database, who.tenantId, recountCounts);
  await check();
  return live;
}

async function runScan(
  who: TestTenant,
  repositoryId: string,
  outcome: 'complete' | 'fail' | 'cancel',
) {
  await withTenant(t.database, who.tenantId, async (db) => {
    const scan = await insertQueuedScan(db, {
      repositoryId,
      trigger: 'manual',
      branch: null,
    });
    if (!scan) throw new Error('no scan queued');
    const running = await claimScan(db, scan.id);
    if (!running) throw new Error('scan not claimed');
    const run = { tenantId: who.tenantId, scanId: scan.id, attempt: running.attempt };
    if (outcome === 'fail') await failScan(db, scan.id, 'boom', running.attempt);
    else if (outcome === 'cancel') await cancelScan(db, scan.id);
    else {
      const result = { commitSha: null, countsByEcosystem: {}, dependencyCount: 0, fileCount: 0 };
      await completeScan(db, run, result);
    }
  });
}

type Severity = 'critical' | 'high' | 'medium' | 'low';

async function insertViolations(who: TestTenant, repositoryId: string, severities: Severity[]) {
  const policyId = newId();
  const packageId = newId();
  await t.database.system
    .insertInto('packages')
    .values({
      id: packageId,
      ecosystem: 'npm',
      name: `p-${packageId}`,
      purl: `pkg:npm/p-${packageId}`,
    })
    .execute();
  await withTenant(t.database, who.tenantId, async (db) => {
    await db
      .insertInto('policies')
      .values({
        id: policyId,
        name: 'p',
        description: '',
        condition: 'true',
        severity: 'high',
        action: 'warn',
        enabled: true,
        version: 1,
        scope: '{}',
      })
      .execute();
    await db
      .insertInto('policy_violations')
      .values(
        severities.map((severity, i) => ({
          id: newId(),
          policy_id: policyId,
          repository_id: repositoryId,
          package_id: packageId,
          version: `1.0.${i}`,
          ecosystem: 'npm',
          package_name: 'p',
          purl: `pkg:npm/p@1.0.${i}`,
          severity,
          action: 'warn',
          status: 'open' as const,
          facts: '{}',
          policy_version: 1,
        })),
      )
      .execute();
  });
}

describe('the dashboard counts kept by the rollups', () => {
  test('repositories: criticality changes, scan completion, deletion', async () => {
    const api = await insertRepository(t, tenant.tenantId, 'api');
    const web = await insertRepository(t, tenant.tenantId, 'web', {
      business_criticality: 'high',
    });
    let live = await expectExact(tenant);
    expect(live.repositories.byCriticality).toMatchObject({ high: 1, unset: 1 });
    expect(live.repositories.byLastScanState.never).toBe(2);

    const patch = await t.as(tenant.token, {
      method: 'PATCH',
      url: `/api/v1/repositories/${api}`,
      payload: { businessCriticality: 'critical' },
    });
    expect(patch.statusCode).toBe(200);
    live = await expectExact(tenant);
    expect(live.repositories.byCriticality).toMatchObject({ critical: 1, high: 1, unset: 0 });

    await runScan(tenant, api, 'complete');
    await runScan(tenant, web, 'fail');
    live = await expectExact(tenant);
    // The last scan is the last finished one, whatever its final state.
    expect(live.repositories.byLastScanState).toEqual({
      never: 0,
      completed: 1,
      failed: 1,
      cancelled: 0,
    });
    await runScan(tenant, api, 'complete');
    await runScan(tenant, web, 'cancel');
    live = await expectExact(tenant);
    expect(live.repositories.byLastScanState).toMatchObject({ completed: 1, cancelled: 1 });
    // last_scan_id keeps its meaning: the last completed scan (never for web).
    const lastScans = await withTenant(t.database, tenant.tenantId, (db) =>
      db.selectFrom('repositories').select(['id', 'last_scan_id']).execute(),
    );
    expect(lastScans.find((row) => row.id === web)?.last_scan_id).toBeNull();
    expect(lastScans.find((row) => row.id === api)?.last_scan_id).not.toBeNull();
    await runScan(tenant, web, 'complete');
    live = await expectExact(tenant);
    expect(live.repositories.byLastScanState).toMatchObject({ completed: 2, cancelled: 0 });

    await insertViolations(tenant, api, ['critical', 'low']);
    live = await expectExact(tenant);
    expect(live.violations.open).toBe(2);
    const deleted = await t.as(tenant.token, {
      method: 'DELETE',
      url: `/api/v1/repositories/${api}`,
    });
    expect(deleted.statusCode).toBe(204);
    live = await expectExact(tenant);
    expect(live.repositories).toMatchObject({ total: 1, byCriticality: { critical: 0, high: 1 } });
    expect(live.repositories.byLastScanState).toMatchObject({ completed: 1, never: 0 });
    // Its violations went with it.
    expect(live.violations.open).toBe(0);
  });

  test('open violations and alerts follow status changes; other tenants see none', async () => {
    const repositoryId = await insertRepository(t, tenant.tenantId, 'svc');
    await insertViolations(tenant, repositoryId, ['critical', 'high', 'high', 'medium']);
    await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .insertInto('alerts')
        .values(
          [1, 2, 3].map((i) => ({
            id: newId(),
            rule_id: newId(),
            rule_name: 'r',
            kind: 'vulnerability.new',
            subject: `s-${i}`,
            title: `alert ${i}`,
            payload: '{}',
          })),
        )
        .execute(),
    );
    let live = await expectExact(tenant);
    expect(live.violations.bySeverity).toMatchObject({ critical: 1, high: 2, medium: 1 });
    expect(live.alerts.open).toBe(3);

    await withTenant(t.database, tenant.tenantId, async (db) => {
      await db
        .updateTable('policy_violations')
        .set({ status: 'dismissed' })
        .where('severity', '=', 'high')
        .execute();
      await db
        .updateTable('policy_violations')
        .set({ severity: 'low' })
        .where('severity', '=', 'medium')
        .execute();
      const first = await db.selectFrom('alerts').select('id').limit(1).executeTakeFirstOrThrow();
      await db
        .updateTable('alerts')
        .set({ status: 'acknowledged' })
        .where('id', '=', first.id)
        .execute();
    });
    live = await expectExact(tenant);
    expect(live.violations.bySeverity).toMatchObject({ critical: 1, high: 0, medium: 0, low: 1 });
    expect(live.alerts.open).toBe(2);

    // A change rolled back leaves no trace.
    await withTenant(t.database, tenant.tenantId, async (db) => {
      await db.deleteFrom('policy_violations').execute();
      throw new Error('rolled back');
    }).catch(() => {});
    await expectExact(tenant);

    const stranger = await t.createTenant('team');
    const theirs = await dashboardOf(stranger);
    expect(theirs.repositories.total).toBe(0);
    expect(theirs.violations.open).toBe(0);
    expect(theirs.alerts.open).toBe(0);
  });

  test('the daily pass recounts a drifted count; deleting a tenant leaves no counts behind', async () => {
    const drifted = await t.createTenant('team');
    await insertRepository(t, drifted.tenantId, 'x', { business_criticality: 'low' });
    await withTenant(t.database, drifted.tenantId, (db) =>
      db
        .insertInto('analytics_count_changes')
        .values({ metric: 'repositories_by_criticality', key: 'low', delta: 5 })
        .execute(),
    );
    expect((await dashboardOf(drifted)).repositories.byCriticality.low).toBe(6);
    await runDailyRollups(t.jobDeps, drifted.tenantId);
    expect((await dashboardOf(drifted)).repositories.byCriticality.low).toBe(1);

    await t.database.system.deleteFrom('tenants').where('id', '=', drifted.tenantId).execute();
    for (const table of ['analytics_counts', 'analytics_count_changes'] as const) {
      const left = await t.database.system
        .selectFrom(table)
        .select('metric')
        .where('tenant_id', '=', drifted.tenantId)
        .execute();
      expect(left, table).toEqual([]);
    }
  });
});
