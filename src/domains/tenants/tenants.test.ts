import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { jobDefinitions } from '../../background-jobs';
import { FEATURES, type Feature, PLANS, type Plan, planHas } from '../../core/plans';
import { newId } from '../../db/ids';
import { PURGE_DEMO_TENANTS } from './jobs';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('POST /api/v1/auth/demo', () => {
  test('creates a trial tenant that expires after 24 hours and returns a working dw_ token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/demo' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^dw_/);
    expect(body.plan).toBe('trial');
    const hours = (new Date(body.expiresAtUtc).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const flags = await t.as(body.token, { method: 'GET', url: '/api/v1/feature-flags' });
    expect(flags.statusCode).toBe(200);
    expect(flags.json().plan).toBe('trial');
    const tokens = await t.as(body.token, { method: 'GET', url: '/api/v1/api-tokens' });
    expect(tokens.json().items[0].expiresAtUtc).toBe(body.expiresAtUtc);
  });

  test('the purge job deletes expired demo tenants with their data, and only those', async () => {
    const expired = (await t.app.inject({ method: 'POST', url: '/api/v1/auth/demo' })).json();
    const live = (await t.app.inject({ method: 'POST', url: '/api/v1/auth/demo' })).json();
    const regular = await t.createTenant('team');
    await t.database.system
      .updateTable('tenants')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.tenantId)
      .execute();
    // An expired demo tenant's token stops working at once, before the purge.
    expect(
      (await t.as(expired.token, { method: 'GET', url: '/api/v1/feature-flags' })).statusCode,
    ).toBe(401);
    const purge = jobDefinitions(t.jobDeps).find((j) => j.name === PURGE_DEMO_TENANTS.name);
    await purge?.handle({ version: 1, tenantId: null, correlationId: null, data: {} });
    const ids = (await t.database.system.selectFrom('tenants').select('id').execute()).map(
      (r) => r.id,
    );
    expect(ids).not.toContain(expired.tenantId);
    expect(ids).toContain(live.tenantId);
    expect(ids).toContain(regular.tenantId);
    const orphanTokens = await t.database.system
      .selectFrom('api_tokens')
      .select('id')
      .where('tenant_id', '=', expired.tenantId)
      .execute();
    expect(orphanTokens).toEqual([]);
  });
});

describe('GET /api/v1/feature-flags', () => {
  test("lists the routed features with the tenant plan's flag, unpaged", async () => {
    const team = await t.createTenant('team');
    const res = await t.as(team.token, { method: 'GET', url: '/api/v1/feature-flags' });
    const body = res.json();
    expect(body.plan).toBe('team');
    expect(body.items.find((f: { key: string }) => f.key === 'cra').enabled).toBe(false);
    expect(body.items.find((f: { key: string }) => f.key === 'api_tokens').enabled).toBe(true);
    expect(body.items.find((f: { key: string }) => f.key === 'benchmarks').enabled).toBe(false);
    for (const item of body.items) expect(item.description).toBe(FEATURES[item.key as Feature]);
    expect(body).not.toHaveProperty('take');
  });

  const flagsOf = async (app: TestApp, token: string) => {
    const res = await app.as(token, { method: 'GET', url: '/api/v1/feature-flags' });
    expect(res.statusCode).toBe(200);
    const items = res.json().items as { key: Feature; enabled: boolean }[];
    return Object.fromEntries(items.map((item) => [item.key, item.enabled]));
  };

  test('a feature is on only where the plan has it and some registered route needs it', async () => {
    const enterprise = await t.createTenant('enterprise');
    const free = await t.createTenant('free');
    const onEnterprise = await flagsOf(t, enterprise.token);
    // Routes exist and the plan has it: on.
    expect(onEnterprise.sbom_export).toBe(true);
    expect(onEnterprise.audit_log_export).toBe(true);
    // Routes exist but the plan lacks it: off.
    expect((await flagsOf(t, free.token)).sbom_export).toBe(false);
    expect((await flagsOf(t, free.token)).policies).toBe(false);
    // Exactly the plan's features that some route declares, nothing hand-kept.
    const declared = new Set<Feature>();
    for (const [key, enabled] of Object.entries(onEnterprise)) {
      if (enabled) declared.add(key as Feature);
    }
    expect([...declared].sort()).toEqual([
      'alert_rules',
      'api_tokens',
      'audit_log_export',
      'benchmarks',
      'compliance_evidence',
      'cra',
      'integrations',
      'policies',
      'quantum',
      'sbom_export',
      'warehouse_export',
    ]);
  });

  test('every listed flag names a feature a registered route requires (probed per plan)', async () => {
    // An oracle kept apart from the route table: a request per feature whose answer depends on
    // it. A new listed feature without a probe fails here until its route is shown.
    const body = { method: 'POST' as const, payload: {} };
    const probes: Record<string, (token: string) => Promise<{ statusCode: number; body: string }>> =
      {
        api_tokens: (token) => t.as(token, { ...body, url: '/api/v1/api-tokens' }),
        alert_rules: (token) => t.as(token, { ...body, url: '/api/v1/alert-rules' }),
        audit_log_export: (token) =>
          t.as(token, { method: 'GET', url: '/api/v1/audit-log/export' }),
        cra: (token) => t.as(token, { method: 'GET', url: '/api/v1/cra/clocks/due' }),
        compliance_evidence: (token) =>
          t.as(token, { method: 'GET', url: '/api/v1/compliance/controls' }),
        integrations: (token) => t.as(token, { ...body, url: '/api/v1/integrations/webhooks' }),
        policies: (token) => t.as(token, { method: 'GET', url: '/api/v1/policies' }),
        quantum: (token) => t.as(token, { method: 'GET', url: '/api/v1/quantum/tls-observations' }),
        sbom_export: (token) =>
          t.as(token, { method: 'GET', url: `/api/v1/repositories/${newId()}/sbom/exports` }),
        warehouse_export: (token) =>
          t.as(token, { method: 'GET', url: '/api/v1/analytics/export/destinations' }),
        benchmarks: (token) =>
          t.as(token, { method: 'GET', url: '/api/v1/tenants/current/benchmark-profile' }),
      };
    const tenants = {} as Record<Plan, TestTenant>;
    for (const plan of PLANS) tenants[plan] = await t.createTenant(plan);
    const listed = Object.keys(await flagsOf(t, tenants.enterprise.token)) as Feature[];
    expect(listed.length).toBeGreaterThan(0);
    for (const plan of PLANS) {
      // The same features on every plan: the list is what the service has, the flag the plan.
      expect(Object.keys(await flagsOf(t, tenants[plan].token)).sort()).toEqual([...listed].sort());
    }
    for (const feature of listed) {
      const probe = probes[feature];
      expect(probe, `no probe for ${feature}`).toBeDefined();
      for (const plan of PLANS) {
        const res = await (probe as NonNullable<typeof probe>)(tenants[plan].token);
        // Every plan has it (api tokens): a route answering at all shows it exists.
        if (PLANS.every((each) => planHas(each, feature))) {
          expect(res.statusCode, `${feature} on ${plan}`).not.toBe(404);
        }
        if (feature === 'benchmarks') {
          const shown = JSON.parse(res.body).benchmark.reason as string;
          expect(shown.includes('plan does not include'), `${feature} on ${plan}`).toBe(
            !planHas(plan, feature),
          );
        } else if (planHas(plan, feature)) {
          expect(res.statusCode, `${feature} on ${plan}`).not.toBe(403);
        } else {
          expect(res.statusCode, `${feature} on ${plan}`).toBe(403);
          expect(res.body, `${feature} on ${plan}`).toContain(FEATURES[feature]);
        }
      }
    }
  });

  test('a route declaring a feature turns it on for plans that have it, and only those', async () => {
    const withPolicies = await createTestApp(
      {},
      {
        database: t.database,
        configure: (app) => {
          app.get(
            '/api/v1/alert-rules-probe',
            { config: { feature: 'alert_rules' } },
            async () => ({}),
          );
          app.get('/api/v1/cra-probe', { config: { feature: 'cra' } }, async () => ({}));
          app.get('/api/v1/quantum-probe', { config: { feature: 'quantum' } }, async () => ({}));
        },
      },
    );
    try {
      const enterprise = await withPolicies.createTenant('enterprise');
      const free = await withPolicies.createTenant('free');
      const team = await withPolicies.createTenant('team');
      expect(await flagsOf(withPolicies, enterprise.token)).toMatchObject({
        alert_rules: true,
        cra: true,
        // Listed only once a route declares it.
        quantum: true,
      });
      expect((await flagsOf(withPolicies, team.token)).quantum).toBe(false);
      expect(await flagsOf(withPolicies, free.token)).toMatchObject({
        alert_rules: false,
        cra: false,
      });
      expect(planHas('team', 'cra')).toBe(false);
      expect((await flagsOf(withPolicies, team.token)).cra).toBe(false);
    } finally {
      await withPolicies.app.close();
    }
  });
});
