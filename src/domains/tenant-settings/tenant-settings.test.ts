import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenWithRole, twoTenants } from '../../../test/support/scenarios';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { ProblemError } from '../../core/problem';
import { nextBenchmarkProfile } from './service';

const NONE = { industry: null, sizeBand: null, optIn: false };

describe('nextBenchmarkProfile', () => {
  const cases: {
    scenario: string;
    current: typeof NONE | { industry: string; sizeBand: string; optIn: boolean };
    change: Parameters<typeof nextBenchmarkProfile>[1];
    next?: ReturnType<typeof nextBenchmarkProfile>;
    invalid?: string[];
  }[] = [
    { scenario: 'an empty change keeps everything', current: NONE, change: {}, next: NONE },
    {
      scenario: 'joining a peer group',
      current: NONE,
      change: { industry: 'software', sizeBand: '50-249', optIn: true },
      next: { industry: 'software', sizeBand: '50-249', optIn: true },
    },
    {
      scenario: 'leaving keeps the group',
      current: { industry: 'software', sizeBand: '50-249', optIn: true },
      change: { optIn: false },
      next: { industry: 'software', sizeBand: '50-249', optIn: false },
    },
    {
      scenario: 'clearing the industry while opted in',
      current: { industry: 'software', sizeBand: '50-249', optIn: true },
      change: { industry: null },
      invalid: ['optIn'],
    },
    {
      scenario: 'opting in without a group',
      current: NONE,
      change: { optIn: true },
      invalid: ['optIn'],
    },
    {
      scenario: 'unknown values, each named',
      current: NONE,
      change: { industry: 'farming', sizeBand: '7' },
      invalid: ['industry', 'sizeBand'],
    },
    {
      scenario: 'an empty industry is no industry',
      current: NONE,
      change: { industry: '' },
      invalid: ['industry'],
    },
  ];
  for (const { scenario, current, change, next, invalid } of cases) {
    it(scenario, () => {
      if (next) {
        expect(nextBenchmarkProfile(current, change)).toEqual(next);
        return;
      }
      try {
        nextBenchmarkProfile(current, change);
        expect.unreachable('a 400 was expected');
      } catch (error) {
        expect(error).toBeInstanceOf(ProblemError);
        expect((error as ProblemError).status).toBe(400);
        expect(Object.keys((error as ProblemError).errors ?? {}).sort()).toEqual(invalid);
      }
    });
  }
});

describe('tenant settings routes', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    t = await createTestApp();
    ({ a, b } = await twoTenants(t));
  });

  afterAll(async () => {
    await t?.close();
  });

  const profile = (tenant: TestTenant) =>
    t.as(tenant.token, { method: 'GET', url: '/api/v1/tenants/current/benchmark-profile' });
  const weights = (tenant: TestTenant) =>
    t.as(tenant.token, { method: 'GET', url: '/api/v1/tenants/current/scoring-weights' });

  it("one tenant's settings never show in another's", async () => {
    const before = (await weights(b)).json();
    const changed = await t.as(a.token, {
      method: 'PATCH',
      url: '/api/v1/tenants/current/benchmark-profile',
      payload: { industry: 'healthcare', sizeBand: '5000+', optIn: true },
    });
    expect(changed.statusCode).toBe(200);
    const replaced = await t.as(a.token, {
      method: 'PATCH',
      url: '/api/v1/tenants/current/scoring-weights',
      payload: { installScripts: 100 },
    });
    expect(replaced.statusCode).toBe(200);
    expect((await profile(a)).json()).toMatchObject({ industry: 'healthcare', optIn: true });
    expect((await profile(b)).json()).toMatchObject({ industry: null, optIn: false });
    expect((await weights(b)).json()).toEqual(before);
  });

  it('a refused change stores nothing; no body changes nothing', async () => {
    const before = (await profile(a)).json();
    const refused = await t.as(a.token, {
      method: 'PATCH',
      url: '/api/v1/tenants/current/benchmark-profile',
      payload: { industry: 'farming', optIn: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toHaveProperty('industry');
    const empty = await t.as(a.token, {
      method: 'PATCH',
      url: '/api/v1/tenants/current/benchmark-profile',
    });
    expect(empty.statusCode).toBe(200);
    expect((await profile(a)).json()).toEqual(before);
  });

  it('members read the settings but only admins change them', async () => {
    const member = { ...a, token: await tokenWithRole(t, a, 'member', null) };
    expect((await profile(member)).statusCode).toBe(200);
    expect((await weights(member)).statusCode).toBe(200);
    const patched = await t.as(member.token, {
      method: 'PATCH',
      url: '/api/v1/tenants/current/benchmark-profile',
      payload: { optIn: false },
    });
    expect(patched.statusCode).toBe(403);
  });
});
