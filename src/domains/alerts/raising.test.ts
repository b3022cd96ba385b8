import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepository, type GitFixture } from '../../../test/support/git-fixtures';
import {
  createTestApp,
  importJsonl,
  insertRepository,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
  twoTenants,
} from '../../../test/support/scenarios';
import {
  receiverConfig,
  startWebhookReceiver,
  verifyDelivery,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver';
import { withTenant } from '../../db/tenant-scope';
import { failScan } from '../scans/store';
import { raiseAlerts } from './raise';

const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';

interface AlertBody {
  alertId: string;
  alertRuleId: string;
  kind: string;
  severity: string | null;
  status: string;
  subject: string;
  repositoryIds: string[];
  packageId: string | null;
  payload: Record<string, unknown>;
}

const lockfile = (deps: Record<string, string>) =>
  JSON.stringify({
    name: 'shop',
    version: '1.0.0',
    lockfileVersion: 3,
    packages: {
      '': { name: 'shop', version: '1.0.0', dependencies: deps },
      ...Object.fromEntries(
        Object.entries(deps).map(([name, version]) => [`node_modules/${name}`, { version }]),
      ),
    },
  });

describe('raising alerts from domain events', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let a: TestTenant;
  let b: TestTenant;
  let repo: GitFixture;

  const createRule = async (tenant: TestTenant, body: object) => {
    const res = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/alert-rules',
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().alertRuleId as string;
  };
  const alerts = async (tenant: TestTenant, query = '') => {
    const res = await t.as(tenant.token, { method: 'GET', url: `/api/v1/alerts${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as AlertBody[];
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await createTestApp(receiverConfig(receiver));
    ({ a, b } = await twoTenants(t));
    repo = createGitRepository({
      'package-lock.json': lockfile({ 'left-pad': '1.0.0', chalk: '2.0.0' }),
    });
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-alrt-0001-crit',
        aliases: ['CVE-2026-0001'],
        severity: CRITICAL,
        affected: [npmRange('left-pad', '0', '1.3.0')],
      }),
      osvRecord({
        id: 'GHSA-alrt-0002-mod',
        databaseSeverity: 'MODERATE',
        affected: [npmRange('chalk', '0', '2.4.0')],
      }),
    ]);
  });
  afterAll(async () => {
    repo?.remove();
    await t?.close();
    await receiver?.close();
  });

  it('end to end: a scan that opens a critical exposure raises one alert for the matching rule and delivers it signed', async () => {
    const hook = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/integrations/webhooks',
      payload: { name: 'pager', url: receiver.url },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const { integrationId, secret } = hook.json() as { integrationId: string; secret: string };
    const ruleId = await createRule(a, {
      name: 'critical exposures',
      kind: 'exposure_opened',
      filters: { minSeverity: 'critical', ecosystems: ['npm'] },
      channels: [integrationId],
    });
    await createRule(a, {
      name: 'python only',
      kind: 'exposure_opened',
      filters: { ecosystems: ['PyPI'] },
    });
    await createRule(a, { name: 'off', kind: 'exposure_opened', enabled: false });
    // Tenant B has a rule too, and no repository: nothing of A's reaches it.
    await createRule(b, { name: 'everything', kind: 'exposure_opened' });
    await t.runJobs();
    receiver.received.length = 0;

    const imported = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/repositories/import',
      payload: { repositories: [{ url: repo.url }] },
    });
    const repositoryId = imported.json().items[0].repositoryId as string;
    const scan = await t.as(a.token, {
      method: 'POST',
      url: `/api/v1/repositories/${repositoryId}/scan`,
    });
    expect(scan.statusCode).toBe(202);
    await t.runJobs();

    const raised = await alerts(a);
    expect(raised).toHaveLength(1);
    const alert = raised[0] as AlertBody;
    const exposures = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/vulnerability-exposures?repositoryId=${repositoryId}&severity=critical`,
    });
    const exposure = exposures.json().items[0];
    expect(alert).toMatchObject({
      alertRuleId: ruleId,
      kind: 'exposure_opened',
      severity: 'critical',
      status: 'open',
      subject: exposure.exposureId,
      repositoryIds: [repositoryId],
      packageId: exposure.packageId,
      payload: {
        repositoryId,
        scanId: scan.json().scanId,
        exposureId: exposure.exposureId,
        packageName: 'left-pad',
        version: '1.0.0',
        canonicalId: 'CVE-2026-0001',
        severity: 'critical',
      },
    });
    expect(await alerts(b)).toEqual([]);

    expect(receiver.received).toHaveLength(1);
    const envelope = verifyDelivery(secret, receiver.received[0] as never);
    expect(envelope.type).toBe('alert.raised');
    expect(envelope.data).toMatchObject({ alertId: alert.alertId, kind: 'exposure_opened' });

    // The same scan again opens nothing new: no second alert.
    await t.as(a.token, { method: 'POST', url: `/api/v1/repositories/${repositoryId}/scan` });
    await t.runJobs();
    expect(await alerts(a)).toHaveLength(1);
  });

  it('dedupe: the same subject alerts once inside the window, again after it; window 0 always alerts', async () => {
    const tenant = await t.createTenant('enterprise', 'Dedupe');
    const repositoryId = await insertRepository(t, tenant.tenantId, 'svc');
    const hour = await createRule(tenant, {
      name: 'hourly',
      kind: 'scan_failed',
      dedupeWindowMinutes: 60,
    });
    const always = await createRule(tenant, {
      name: 'always',
      kind: 'scan_failed',
      dedupeWindowMinutes: 0,
    });
    const event = { scanId: repositoryId, repositoryId, error: 'clone failed' };
    const raise = () =>
      withTenant(t.database, tenant.tenantId, (db) =>
        raiseAlerts(db, tenant.tenantId, 'scan.failed', event),
      );
    const ruleIds = (result: Awaited<ReturnType<typeof raise>>) =>
      result.raised.map((r) => r.rule_id).sort();
    expect(ruleIds(await raise())).toEqual([hour, always].sort());
    expect(ruleIds(await raise())).toEqual([always]);
    await t.database.system
      .updateTable('alert_dedupe')
      .set({ quiet_until: sql<Date>`now() - interval '1 second'` })
      .where('rule_id', '=', hour)
      .execute();
    expect(ruleIds(await raise())).toEqual([hour, always].sort());
    // Concurrent raises of the same subject: the unique key lets one win.
    await t.database.system
      .updateTable('alert_dedupe')
      .set({ quiet_until: sql<Date>`now() - interval '1 second'` })
      .where('rule_id', '=', hour)
      .execute();
    const both = await Promise.all([raise(), raise()]);
    expect(both.flatMap((r) => r.raised).filter((r) => r.rule_id === hour)).toHaveLength(1);
    // 2 + 1 + 2 raised one by one, then 1 (hourly) + 2 (always) by the concurrent pair.
    expect(await alerts(tenant, '?kind=scan_failed')).toHaveLength(8);
  });

  it('scan.failed from the scan lifecycle raises scan_failed; reintroduced exposures raise exposure_reopened', async () => {
    const tenant = await t.createTenant('enterprise', 'Lifecycle');
    await createRule(tenant, { name: 'failures', kind: 'scan_failed' });
    await createRule(tenant, {
      name: 'back again',
      kind: 'exposure_reopened',
      filters: { minSeverity: 'high' },
    });
    const repositoryId = await insertRepository(t, tenant.tenantId, 'api');
    const queued = await t.as(tenant.token, {
      method: 'POST',
      url: `/api/v1/repositories/${repositoryId}/scan`,
    });
    const scanId = queued.json().scanId as string;
    await withTenant(t.database, tenant.tenantId, (db) => failScan(db, scanId, 'checkout refused'));
    await t.runJobs({ only: ['alerts.raise.scan.failed'] });
    const failed = await alerts(tenant, '?kind=scan_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      subject: repositoryId,
      severity: 'medium',
      payload: { scanId, repositoryId, error: 'checkout refused' },
    });

    await scanWith(
      t,
      tenant.tenantId,
      repositoryId,
      [
        { name: 'left-pad', version: '1.0.0' },
        { name: 'chalk', version: '2.0.0' },
      ],
      'all',
    );
    await scanWith(t, tenant.tenantId, repositoryId, [], 'all');
    expect(await alerts(tenant, '?kind=exposure_reopened')).toEqual([]);
    await scanWith(
      t,
      tenant.tenantId,
      repositoryId,
      [
        { name: 'left-pad', version: '1.0.0' },
        { name: 'chalk', version: '2.0.0' },
      ],
      'all',
    );
    const reopened = await alerts(tenant, '?kind=exposure_reopened');
    // Both came back; only the critical one passes the rule's minimum.
    expect(reopened).toHaveLength(1);
    expect(reopened[0]?.payload).toMatchObject({ packageName: 'left-pad', severity: 'critical' });
  });

  it('an advisory whose severity rises alerts the tenants exposed to it', async () => {
    const tenant = await t.createTenant('enterprise', 'Advisories');
    const bystander = await t.createTenant('enterprise', 'Bystander');
    await createRule(tenant, {
      name: 'raised',
      kind: 'advisory_severity_raised',
      filters: { minSeverity: 'high' },
    });
    await createRule(bystander, { name: 'raised', kind: 'advisory_severity_raised' });
    const repositoryId = await insertRepository(t, tenant.tenantId, 'web');
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-alrt-0003-rise',
        databaseSeverity: 'LOW',
        affected: [npmRange('ms', '0', '2.0.0')],
      }),
    ]);
    await scanWith(t, tenant.tenantId, repositoryId, [{ name: 'ms', version: '1.0.0' }], 'all');
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-alrt-0003-rise',
        modified: '2025-06-01T00:00:00Z',
        databaseSeverity: 'HIGH',
        affected: [npmRange('ms', '0', '2.0.0')],
      }),
    ]);
    await t.runJobs();
    const raised = await alerts(tenant, '?kind=advisory_severity_raised');
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      severity: 'high',
      repositoryIds: [repositoryId],
      payload: { previousSeverity: 'low', severity: 'high', canonicalId: 'GHSA-alrt-0003-rise' },
    });
    expect(await alerts(bystander)).toEqual([]);
  });

  it('policy violations alert at or above the severity, or on action block unless blockAlways is false', async () => {
    const tenant = await t.createTenant('enterprise', 'Policies');
    const repositoryId = await insertRepository(t, tenant.tenantId, 'web');
    const high = await createRule(tenant, {
      name: 'high',
      kind: 'policy_violation_opened',
      filters: { minSeverity: 'high' },
    });
    const strict = await createRule(tenant, {
      name: 'strict',
      kind: 'policy_violation_opened',
      filters: { minSeverity: 'high' },
      settings: { blockAlways: false },
    });
    const { rows } = await sql<{ id: string }>`SELECT id FROM packages LIMIT 1`.execute(
      t.database.system,
    );
    const packageId = rows[0]?.id as string;
    const violation = (violationId: string, severity: string, action: string) =>
      withTenant(t.database, tenant.tenantId, (db) =>
        raiseAlerts(db, tenant.tenantId, 'policy_violation.opened', {
          policyId: violationId,
          violationId,
          repositoryId,
          packageId,
          severity,
          action,
        }),
      );
    const ids = [
      '0195f000-0000-7000-8000-000000000001',
      '0195f000-0000-7000-8000-000000000002',
      '0195f000-0000-7000-8000-000000000003',
    ];
    expect((await violation(ids[0] as string, 'low', 'warn')).raised).toEqual([]);
    expect(
      (await violation(ids[1] as string, 'low', 'block')).raised.map((r) => r.rule_id),
    ).toEqual([high]);
    expect(
      (await violation(ids[2] as string, 'critical', 'warn')).raised.map((r) => r.rule_id).sort(),
    ).toEqual([high, strict].sort());
  });

  it('a tenant whose plan lacks alert_rules gets no alerts from its old rules', async () => {
    const tenant = await t.createTenant('enterprise', 'Downgraded');
    const repositoryId = await insertRepository(t, tenant.tenantId, 'svc');
    await createRule(tenant, { name: 'failures', kind: 'scan_failed' });
    await t.database.system
      .updateTable('tenants')
      .set({ plan: 'free' })
      .where('id', '=', tenant.tenantId)
      .execute();
    const result = await withTenant(t.database, tenant.tenantId, (db) =>
      raiseAlerts(db, tenant.tenantId, 'scan.failed', {
        scanId: repositoryId,
        repositoryId,
        error: null,
      }),
    );
    expect(result.raised).toEqual([]);
  });
});
