import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tokenWithRole, twoTenants } from '../../../test/support/scenarios';
import type { TestApp, TestTenant } from '../../../test/support/test-app';
import { createTestApp } from '../../../test/support/test-app';
import { PLANS } from '../../core/plans';
import { ROLES } from '../../core/roles';

/** GET /api/v1/tenants/current and GET /api/v1/api-tokens/current: who is calling. */
let t: TestApp;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  t = await createTestApp();
  ({ a, b } = await twoTenants(t, 'team', ['Acme Robotics', 'Globex']));
});
afterAll(async () => t?.close());

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });

describe('GET /api/v1/tenants/current', () => {
  test("answers the caller's own tenant, and another tenant's token its own", async () => {
    const stored = await t.database.system
      .selectFrom('tenants')
      .select(['id', 'created_at'])
      .where('id', 'in', [a.tenantId, b.tenantId])
      .execute();
    const createdOf = (id: string) => stored.find((row) => row.id === id)?.created_at.toISOString();
    const mine = await get(a.token, '/api/v1/tenants/current');
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({
      tenantId: a.tenantId,
      name: 'Acme Robotics',
      plan: 'team',
      createdAtUtc: createdOf(a.tenantId),
    });
    const theirs = await get(b.token, '/api/v1/tenants/current');
    expect(theirs.json()).toEqual({
      tenantId: b.tenantId,
      name: 'Globex',
      plan: 'team',
      createdAtUtc: createdOf(b.tenantId),
    });
  });

  test('any role may read it; a plan change shows at once', async () => {
    const viewer = await tokenWithRole(t, a, 'viewer');
    expect((await get(viewer, '/api/v1/tenants/current')).json().name).toBe('Acme Robotics');
    const other = await t.createTenant('free', 'Initech');
    await t.database.system
      .updateTable('tenants')
      .set({ plan: 'business' })
      .where('id', '=', other.tenantId)
      .execute();
    expect((await get(other.token, '/api/v1/tenants/current')).json().plan).toBe('business');
  });

  test('401 without a token or with an unknown one', async () => {
    const bare = await t.app.inject({ method: 'GET', url: '/api/v1/tenants/current' });
    expect(bare.statusCode).toBe(401);
    expect(bare.headers['content-type']).toContain('application/problem+json');
    expect((await get(`dw_${'x'.repeat(46)}`, '/api/v1/tenants/current')).statusCode).toBe(401);
  });
});

describe('GET /api/v1/api-tokens/current', () => {
  test('answers the calling token with its roles, never the secret or hash', async () => {
    const expiresAtUtc = new Date(Date.now() + 3_600_000).toISOString();
    const created = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'ci reader', roleScopeJson: '{"roles":["member"]}', expiresAtUtc },
    });
    expect(created.statusCode).toBe(201);
    const { rawSecret, apiTokenId, prefix } = created.json();
    const res = await get(rawSecret, '/api/v1/api-tokens/current');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      apiTokenId,
      name: 'ci reader',
      prefix,
      roles: ['member'],
      expiresAtUtc,
    });
    expect(res.body).not.toContain(rawSecret);
    expect(res.body).not.toContain('secret');
    expect(res.body).not.toContain('hash');
  });

  test("the owner's token and another tenant's token each see their own", async () => {
    const mine = (await get(a.token, '/api/v1/api-tokens/current')).json();
    expect(mine).toMatchObject({ apiTokenId: a.tokenId, roles: ['owner'], expiresAtUtc: null });
    const theirs = (await get(b.token, '/api/v1/api-tokens/current')).json();
    expect(theirs.apiTokenId).toBe(b.tokenId);
    expect(theirs.apiTokenId).not.toBe(mine.apiTokenId);
  });

  test('a token created with inherited roles shows the roles it inherited', async () => {
    const admin = await tokenWithRole(t, a, 'admin');
    const child = await t.as(admin, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'child', roleScopeJson: null, expiresAtUtc: null },
    });
    expect(child.statusCode).toBe(201);
    const shown = (await get(child.json().rawSecret, '/api/v1/api-tokens/current')).json();
    expect(shown).toMatchObject({ name: 'child', roles: ['admin'] });
  });

  test('401 without a token, and after the token is revoked', async () => {
    const bare = await t.app.inject({ method: 'GET', url: '/api/v1/api-tokens/current' });
    expect(bare.statusCode).toBe(401);
    const member = await tokenWithRole(t, a, 'member');
    const { apiTokenId } = (await get(member, '/api/v1/api-tokens/current')).json();
    const revoked = await t.as(a.token, {
      method: 'DELETE',
      url: `/api/v1/api-tokens/${apiTokenId}`,
    });
    expect(revoked.statusCode).toBe(204);
    expect((await get(member, '/api/v1/api-tokens/current')).statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  test('both responses are fully described; the enums are the plans and roles', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const schemaOf = (path: string) =>
      doc.paths[path].get.responses['200'].content['application/json'].schema;
    const tenant = schemaOf('/api/v1/tenants/current');
    expect(tenant.required.sort()).toEqual(['createdAtUtc', 'name', 'plan', 'tenantId']);
    const plans = tenant.properties.plan.anyOf.flatMap((s: { enum: string[] }) => s.enum);
    expect(plans).toEqual([...PLANS]);
    const token = schemaOf('/api/v1/api-tokens/current');
    expect(token.required.sort()).toEqual([
      'apiTokenId',
      'expiresAtUtc',
      'name',
      'prefix',
      'roles',
    ]);
    const roles = token.properties.roles.items.anyOf.flatMap((s: { enum: string[] }) => s.enum);
    expect(roles).toEqual([...ROLES]);
  });
});
