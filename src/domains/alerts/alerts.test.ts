import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  insertRepository,
  type TestApp,
  type TestTenant,
  tokenWithRole,
  twoTenants,
} from '../../../test/support/scenarios';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import { insertAlerts } from './store';

interface RuleBody {
  alertRuleId: string;
  name: string;
  kind: string;
  enabled: boolean;
  filters: { repositoryIds: string[]; ecosystems: string[]; minSeverity: string | null };
  settings: Record<string, unknown>;
  dedupeWindowMinutes: number;
  channels: string[];
}

describe('alert rules and alerts', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let free: TestTenant;
  let repo: string;
  const tokens: Record<string, string> = {};

  const tokenWith = (tenant: TestTenant, role: string) => tokenWithRole(t, tenant, role);
  const rules = (token: string, method: 'GET' | 'POST', payload?: object) =>
    t.as(token, { method, url: '/api/v1/alert-rules', payload });
  const rule = (token: string, method: 'GET' | 'PATCH' | 'DELETE', id: string, payload?: object) =>
    t.as(token, { method, url: `/api/v1/alert-rules/${id}`, payload });
  const critical = {
    name: 'critical exposures',
    kind: 'exposure_opened',
    filters: { minSeverity: 'critical' },
  };

  const seedAlert = (tenant: TestTenant, ruleId: string, fields: Record<string, unknown> = {}) =>
    withTenant(t.database, tenant.tenantId, async (db) => {
      const [row] = await insertAlerts(db, [
        {
          id: newId(),
          rule_id: ruleId,
          rule_name: 'seeded',
          kind: 'scan_failed',
          severity: 'medium',
          subject: newId(),
          title: 'Scan failed',
          repository_ids: [],
          payload: JSON.stringify({}),
          ...fields,
        },
      ]);
      return row?.id as string;
    });

  beforeAll(async () => {
    t = await createTestApp();
    ({ a, b } = await twoTenants(t));
    free = await t.createTenant('free', 'Free');
    repo = await insertRepository(t, a.tenantId, 'web');
    for (const role of ['viewer', 'member', 'admin']) tokens[role] = await tokenWith(a, role);
  });
  afterAll(() => t.close());

  it('creates a rule (201) with defaults, reads, lists, changes and deletes it', async () => {
    const created = await rules(tokens.admin as string, 'POST', {
      ...critical,
      filters: { minSeverity: 'Critical', ecosystems: ['NPM'], repositoryIds: [repo] },
      channels: [],
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json() as RuleBody;
    expect(body).toMatchObject({
      name: 'critical exposures',
      kind: 'exposure_opened',
      enabled: true,
      filters: { minSeverity: 'critical', ecosystems: ['npm'], repositoryIds: [repo] },
      settings: {},
      dedupeWindowMinutes: 1440,
      channels: [],
    });
    const read = await rule(tokens.viewer as string, 'GET', body.alertRuleId);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(body);
    const listed = await rules(tokens.viewer as string, 'GET');
    expect(listed.json().items.map((r: RuleBody) => r.alertRuleId)).toContain(body.alertRuleId);

    const patched = await rule(a.token, 'PATCH', body.alertRuleId, {
      enabled: false,
      dedupeWindowMinutes: 5,
      filters: { minSeverity: null },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      enabled: false,
      dedupeWindowMinutes: 5,
      name: 'critical exposures',
      filters: { minSeverity: null, ecosystems: ['npm'], repositoryIds: [repo] },
    });

    expect((await rule(tokens.admin as string, 'DELETE', body.alertRuleId)).statusCode).toBe(204);
    expect((await rule(a.token, 'GET', body.alertRuleId)).statusCode).toBe(404);
    expect((await rule(a.token, 'DELETE', body.alertRuleId)).statusCode).toBe(404);
  });

  it('checks kind, settings, filters and the window (400 keyed by field, nothing stored)', async () => {
    const before = (await rules(a.token, 'GET')).json().items.length;
    const cases: [object, string][] = [
      [{ ...critical, kind: 'nope' }, 'kind'],
      [{ ...critical, filters: { minSeverity: 'severe' } }, 'filters.minSeverity'],
      [{ ...critical, filters: { ecosystems: ['cobol'] } }, 'filters.ecosystems'],
      [{ ...critical, filters: { repositoryIds: [newId()] } }, 'filters.repositoryIds'],
      [{ ...critical, settings: { below: 3 } }, 'settings'],
      [{ name: 'h', kind: 'health_score', settings: {} }, 'settings'],
      [{ name: 'h', kind: 'health_score', settings: { below: 500 } }, 'settings'],
      [{ ...critical, dedupeWindowMinutes: -1 }, 'dedupeWindowMinutes'],
      [{ ...critical, channels: ['not-a-uuid'] }, 'channels[0]'],
      // An integration id that is not the tenant's own (unknown, or another tenant's).
      [{ ...critical, channels: [newId()] }, 'channels'],
      [{ ...critical, name: '' }, 'name'],
      [{ ...critical, extra: true }, ''],
    ];
    for (const [payload, field] of cases) {
      const res = await rules(a.token, 'POST', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      if (field)
        expect(JSON.stringify(res.json().errors), JSON.stringify(payload)).toContain(field);
    }
    expect((await rules(a.token, 'GET')).json().items.length).toBe(before);
    const health = await rules(a.token, 'POST', {
      name: 'weak health',
      kind: 'health_score',
      settings: { below: 40, droppedBy: 15 },
    });
    expect(health.statusCode, health.body).toBe(201);
    expect(health.json().settings).toEqual({ below: 40, droppedBy: 15 });
    // Changing the kind drops settings that belonged to the old one.
    const moved = await rule(a.token, 'PATCH', health.json().alertRuleId, { kind: 'scan_failed' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().settings).toEqual({});
  });

  it('roles and plans: viewer and member cannot change rules; a plan without alert_rules gets 403', async () => {
    for (const role of ['viewer', 'member']) {
      expect((await rules(tokens[role] as string, 'POST', critical)).statusCode).toBe(403);
    }
    const created = (await rules(a.token, 'POST', critical)).json() as RuleBody;
    for (const role of ['viewer', 'member']) {
      const token = tokens[role] as string;
      expect((await rule(token, 'PATCH', created.alertRuleId, { enabled: false })).statusCode).toBe(
        403,
      );
      expect((await rule(token, 'DELETE', created.alertRuleId)).statusCode).toBe(403);
    }
    const refused = await rules(free.token, 'POST', critical);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect((await rules(free.token, 'GET')).json().items).toEqual([]);
    const flags = await t.as(a.token, { method: 'GET', url: '/api/v1/feature-flags' });
    expect(JSON.stringify(flags.json())).toMatch(
      /"alert_rules"[^}]*"enabled":true|"enabled":true[^}]*"alert_rules"/,
    );
  });

  it("another tenant's rule and alert ids are 404", async () => {
    const created = (await rules(a.token, 'POST', critical)).json() as RuleBody;
    const alertId = await seedAlert(a, created.alertRuleId);
    expect((await rule(b.token, 'GET', created.alertRuleId)).statusCode).toBe(404);
    expect((await rule(b.token, 'PATCH', created.alertRuleId, { enabled: false })).statusCode).toBe(
      404,
    );
    expect((await rule(b.token, 'DELETE', created.alertRuleId)).statusCode).toBe(404);
    expect(
      (await t.as(b.token, { method: 'GET', url: `/api/v1/alerts/${alertId}` })).statusCode,
    ).toBe(404);
    const ack = await t.as(b.token, {
      method: 'PATCH',
      url: `/api/v1/alerts/${alertId}`,
      payload: {},
    });
    expect(ack.statusCode).toBe(404);
    expect((await t.as(b.token, { method: 'GET', url: '/api/v1/alerts' })).json().items).toEqual(
      [],
    );
    // Still open for its own tenant.
    const own = await t.as(a.token, { method: 'GET', url: `/api/v1/alerts/${alertId}` });
    expect(own.json().status).toBe('open');
    const malformed = await t.as(a.token, { method: 'GET', url: '/api/v1/alerts/not-a-uuid' });
    expect(malformed.statusCode).toBe(400);
  });

  it('acknowledgement table: open → acknowledged once; again, or to open, is a 422', async () => {
    const ruleId = ((await rules(a.token, 'POST', critical)).json() as RuleBody).alertRuleId;
    const cases: { from: 'open' | 'acknowledged'; body: object | undefined; status: number }[] = [
      { from: 'open', body: undefined, status: 200 },
      { from: 'open', body: {}, status: 200 },
      { from: 'open', body: { status: 'acknowledged', note: 'on it' }, status: 200 },
      { from: 'open', body: { status: 'Acknowledged' }, status: 200 },
      { from: 'open', body: { status: 'open' }, status: 422 },
      { from: 'open', body: { status: 'closed' }, status: 422 },
      { from: 'open', body: { note: 'x'.repeat(2001) }, status: 422 },
      { from: 'acknowledged', body: {}, status: 422 },
      { from: 'acknowledged', body: { status: 'acknowledged' }, status: 422 },
      { from: 'acknowledged', body: { status: 'open' }, status: 422 },
    ];
    for (const c of cases) {
      const id = await seedAlert(a, ruleId);
      if (c.from === 'acknowledged') {
        const first = await t.as(tokens.member as string, {
          method: 'PATCH',
          url: `/api/v1/alerts/${id}`,
        });
        expect(first.statusCode).toBe(200);
      }
      const before = (await t.as(a.token, { method: 'GET', url: `/api/v1/alerts/${id}` })).json();
      const res = await t.as(tokens.member as string, {
        method: 'PATCH',
        url: `/api/v1/alerts/${id}`,
        ...(c.body === undefined ? {} : { payload: c.body }),
      });
      expect(res.statusCode, `${JSON.stringify(c)} ${res.body}`).toBe(c.status);
      const after = (await t.as(a.token, { method: 'GET', url: `/api/v1/alerts/${id}` })).json();
      if (c.status === 422) {
        expect(res.json().errors).toBeDefined();
        expect(after).toEqual(before);
      } else {
        expect(after).toMatchObject({
          status: 'acknowledged',
          acknowledgedByTokenId: expect.any(String),
        });
        expect(after.acknowledgedAtUtc).not.toBeNull();
      }
    }
    const id = await seedAlert(a, ruleId);
    const viewer = await t.as(tokens.viewer as string, {
      method: 'PATCH',
      url: `/api/v1/alerts/${id}`,
    });
    expect(viewer.statusCode).toBe(403);
    const audit = await t.as(a.token, { method: 'GET', url: '/api/v1/audit-log?take=200' });
    expect(audit.body).toContain('alert.acknowledge');
  });

  it('lists alerts newest first with take/skip, totalEstimate and every filter', async () => {
    const tenant = await t.createTenant('enterprise', 'Lists');
    const other = await insertRepository(t, tenant.tenantId, 'api');
    const ruleId = ((await rules(tenant.token, 'POST', critical)).json() as RuleBody).alertRuleId;
    const ids: string[] = [];
    const hourAgo = new Date(Date.now() - 3_600_000);
    ids.push(
      await seedAlert(tenant, ruleId, {
        kind: 'exposure_opened',
        severity: 'critical',
        repository_ids: [other],
        raised_at: hourAgo,
      }),
    );
    ids.push(await seedAlert(tenant, ruleId, { kind: 'scan_failed', severity: 'medium' }));
    ids.push(await seedAlert(tenant, ruleId, { kind: 'scan_failed', severity: 'medium' }));
    const list = async (query: string) => {
      const res = await t.as(tenant.token, { method: 'GET', url: `/api/v1/alerts${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as {
        items: { alertId: string }[];
        totalEstimate: number;
        take: number;
        skip: number;
      };
    };
    const all = await list('');
    expect(all.items.map((i) => i.alertId)).toEqual([ids[2], ids[1], ids[0]]);
    expect(all).toMatchObject({ totalEstimate: 3, take: 50, skip: 0 });
    const page = await list('?take=1&skip=1');
    expect(page.items.map((i) => i.alertId)).toEqual([ids[1]]);
    expect(page.totalEstimate).toBe(3);
    expect((await list('?kind=ExposureOpened')).items.map((i) => i.alertId)).toEqual([ids[0]]);
    expect((await list('?severity=medium')).totalEstimate).toBe(2);
    expect((await list(`?repositoryId=${other}`)).items.map((i) => i.alertId)).toEqual([ids[0]]);
    const cut = encodeURIComponent(new Date(Date.now() - 60_000).toISOString());
    expect((await list(`?toUtc=${cut}`)).items.map((i) => i.alertId)).toEqual([ids[0]]);
    expect((await list(`?fromUtc=${cut}`)).totalEstimate).toBe(2);
    await t.as(tenant.token, { method: 'PATCH', url: `/api/v1/alerts/${ids[1]}` });
    expect((await list('?status=acknowledged')).items.map((i) => i.alertId)).toEqual([ids[1]]);
    expect((await list('?status=open')).totalEstimate).toBe(2);
    for (const bad of [
      '?kind=nope',
      '?severity=extreme',
      '?status=closed',
      '?take=0',
      '?skip=-1',
      '?repositoryId=x',
      '?fromUtc=yesterday',
      `?fromUtc=${cut}&toUtc=${encodeURIComponent(hourAgo.toISOString())}`,
    ]) {
      const res = await t.as(tenant.token, { method: 'GET', url: `/api/v1/alerts${bad}` });
      expect(res.statusCode, bad).toBe(400);
    }
  });
});
