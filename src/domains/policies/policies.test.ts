import { readFileSync } from 'node:fs';
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
import { compileCondition } from './evaluation/cel';
import { FACTS_BEGIN, FACTS_END, factsMarkdown } from './facts/doc';

const CRITICAL_WITH_FIX =
  'vulnerabilities.items.exists(v, v.severity == "critical" && v.fixAvailable)';

describe('policies', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let viewer: string;

  const create = (token: string, payload: object) =>
    t.as(token, { method: 'POST', url: '/api/v1/policies', payload });
  const valid = {
    name: 'Critical with a fix',
    condition: CRITICAL_WITH_FIX,
    severity: 'critical',
    action: 'block',
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ a, b } = await twoTenants(t));
    viewer = await tokenWithRole(t, a, 'viewer', null);
  });
  afterAll(() => t.close());

  it('creates, lists, reads, changes and deletes a policy', async () => {
    const created = await create(a.token, {
      ...valid,
      description: 'No known critical hole that has a fix',
      scope: { ecosystems: ['Npm'], businessCriticalities: ['high', 'critical'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const policy = created.json();
    expect(policy).toMatchObject({
      name: 'Critical with a fix',
      severity: 'critical',
      action: 'block',
      enabled: true,
      version: 1,
      scope: {
        repositoryIds: [],
        ecosystems: ['npm'],
        businessCriticalities: ['high', 'critical'],
        lifecycleStatuses: [],
      },
    });

    const listed = await t.as(viewer, { method: 'GET', url: '/api/v1/policies' });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ totalEstimate: 1, take: 50, skip: 0 });
    expect(listed.json().items[0].policyId).toBe(policy.policyId);

    const url = `/api/v1/policies/${policy.policyId}`;
    expect((await t.as(viewer, { method: 'GET', url })).json().condition).toBe(CRITICAL_WITH_FIX);

    const patched = await t.as(a.token, {
      method: 'PATCH',
      url,
      payload: { enabled: false, severity: 'High' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ enabled: false, severity: 'high', version: 2 });
    expect(patched.json().scope.ecosystems).toEqual(['npm']);

    const audit = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=policy.update',
    });
    expect(audit.json().items[0]).toMatchObject({ resourceId: policy.policyId });

    expect((await t.as(a.token, { method: 'DELETE', url })).statusCode).toBe(204);
    expect((await t.as(a.token, { method: 'DELETE', url })).statusCode).toBe(404);
    expect((await t.as(a.token, { method: 'GET', url })).statusCode).toBe(404);
  });

  it('refuses conditions that do not compile, with the position (422 errors.condition)', async () => {
    const cases: [string, RegExp][] = [
      ['dependency.nme == "x"', /^line 1, column 12: .*nme/],
      ['dependency.name ==', /^line 1, column \d+: Unexpected/],
      ['dependency.direct &&\n  drift.majorBehind > 1', /^line 2, column 9: .*majorBehind/],
      ['unknownVariable', /Unknown variable/],
      ['dependency.name', /must be a bool expression/],
      ['dependency.name + 1 == 2', /overload/],
      ['', /must not be empty/],
    ];
    for (const [condition, message] of cases) {
      const res = await create(a.token, { ...valid, condition });
      expect(res.statusCode, condition).toBe(422);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().errors.condition[0]).toMatch(message);
    }
    const policy = (await create(a.token, valid)).json();
    const patched = await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/policies/${policy.policyId}`,
      payload: { condition: 'drift.libyaer > 2' },
    });
    expect(patched.statusCode).toBe(422);
    expect(patched.json().errors.condition[0]).toMatch(/column 7/);
    const unchanged = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/policies/${policy.policyId}`,
    });
    expect(unchanged.json()).toMatchObject({ condition: CRITICAL_WITH_FIX, version: 1 });
  });

  it('refuses unknown severities, actions and scope values (400)', async () => {
    for (const payload of [
      { ...valid, severity: 'urgent' },
      { ...valid, action: 'explode' },
      { ...valid, scope: { ecosystems: ['cobol'] } },
      { ...valid, scope: { repositoryIds: ['not-a-uuid'] } },
      { ...valid, name: '   ' },
      { condition: 'true' },
    ]) {
      expect((await create(a.token, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it("refuses a scope naming a random id or another tenant's repository (400), on create and update", async () => {
    const ours = await insertRepository(t, a.tenantId, 'scoped-ours');
    const theirs = await insertRepository(t, b.tenantId, 'scoped-theirs');
    const random = newId();
    for (const repositoryIds of [[random], [theirs], [ours, theirs]]) {
      const res = await create(a.token, { ...valid, scope: { repositoryIds } });
      expect(res.statusCode, JSON.stringify(repositoryIds)).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      const unknown = repositoryIds.filter((id) => id !== ours);
      expect(res.json().errors['scope.repositoryIds']).toEqual(
        unknown.map((id) => `${id} is not one of the tenant's repositories`),
      );
    }
    const listed = await t.as(a.token, { method: 'GET', url: '/api/v1/policies?take=200' });
    const scopes = listed.json().items.map((item: { scope: object }) => item.scope);
    expect(scopes).not.toContainEqual(expect.objectContaining({ repositoryIds: [random] }));

    const created = await create(a.token, { ...valid, scope: { repositoryIds: [ours] } });
    expect(created.statusCode, created.body).toBe(201);
    const url = `/api/v1/policies/${created.json().policyId}`;
    const patched = await t.as(a.token, {
      method: 'PATCH',
      url,
      payload: { scope: { repositoryIds: [ours, theirs] } },
    });
    expect(patched.statusCode, patched.body).toBe(400);
    expect(patched.json().errors['scope.repositoryIds']).toEqual([
      `${theirs} is not one of the tenant's repositories`,
    ]);
    const unchanged = (await t.as(a.token, { method: 'GET', url })).json();
    expect(unchanged).toMatchObject({ version: 1, scope: { repositoryIds: [ours] } });
    // The other tenant may scope its own repository (a tenant of its own, so B stays empty).
    const c = await t.createTenant('enterprise', 'C');
    const its = await insertRepository(t, c.tenantId, 'scoped-its');
    expect((await create(c.token, { ...valid, scope: { repositoryIds: [its] } })).statusCode).toBe(
      201,
    );
  });

  it('needs admin to change, the policies plan feature, and keeps tenants apart', async () => {
    expect((await create(viewer, valid)).statusCode).toBe(403);
    const free = await t.createTenant('free', 'Free');
    expect((await create(free.token, valid)).statusCode).toBe(403);
    expect((await t.as(free.token, { method: 'GET', url: '/api/v1/policies' })).statusCode).toBe(
      403,
    );

    const policy = (await create(a.token, valid)).json();
    const url = `/api/v1/policies/${policy.policyId}`;
    expect(
      (await t.as(viewer, { method: 'PATCH', url, payload: { enabled: false } })).statusCode,
    ).toBe(403);
    expect((await t.as(viewer, { method: 'DELETE', url })).statusCode).toBe(403);
    for (const method of ['GET', 'DELETE'] as const) {
      expect((await t.as(b.token, { method, url })).statusCode).toBe(404);
    }
    expect(
      (await t.as(b.token, { method: 'PATCH', url, payload: { enabled: false } })).statusCode,
    ).toBe(404);
    const listed = await t.as(b.token, { method: 'GET', url: '/api/v1/policies' });
    expect(listed.json().items).toEqual([]);
  });

  it('documents the facts as generated from the definition, and its examples compile', () => {
    const page = readFileSync(new URL('../../../docs/policies.md', import.meta.url), 'utf8');
    const start = page.indexOf(FACTS_BEGIN);
    const end = page.indexOf(FACTS_END);
    expect(start).toBeGreaterThan(0);
    expect(page.slice(start, end + FACTS_END.length)).toBe(factsMarkdown());
    const examples = [...page.matchAll(/```cel\n([\s\S]*?)```/g)].flatMap((block) =>
      (block[1] ?? '').split('\n').filter((line) => line.trim() && !line.startsWith('//')),
    );
    expect(examples.length).toBeGreaterThan(5);
    for (const example of examples) {
      const compiled = compileCondition(example);
      expect(compiled.ok ? [] : compiled.errors, example).toEqual([]);
    }
  });
});
