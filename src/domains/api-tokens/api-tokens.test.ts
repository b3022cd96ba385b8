import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';

let t: TestApp;
let owner: TestTenant;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createTenant('enterprise');
});
afterAll(async () => t?.close());

const create = (token: string, payload: unknown) =>
  t.as(token, { method: 'POST', url: '/api/v1/api-tokens', payload: payload as object });

describe('POST /api/v1/api-tokens', () => {
  test('returns every field, the secret once, and stores only its hash', async () => {
    const expiresAtUtc = new Date(Date.now() + 86_400_000).toISOString();
    const res = await create(owner.token, {
      name: 'deploy',
      roleScopeJson: '{"roles":["viewer"]}',
      expiresAtUtc,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      apiTokenId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'deploy',
      prefix: body.rawSecret.slice(0, 12),
      rawSecret: expect.stringMatching(/^dw_[0-9A-Za-z]{46}$/),
      roleScopeJson: '{"roles":["viewer"]}',
      expiresAtUtc,
      createdAtUtc: expect.any(String),
      replay: false,
    });
    const stored = await t.database.system
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', body.apiTokenId)
      .executeTakeFirstOrThrow();
    expect(stored.secret_hash.toString('hex')).not.toContain(body.rawSecret);
    expect(JSON.stringify(stored)).not.toContain(body.rawSecret);
    const list = await t.as(owner.token, { method: 'GET', url: '/api/v1/api-tokens' });
    expect(list.body).not.toContain(body.rawSecret);
    expect(
      list.json().items.find((i: { apiTokenId: string }) => i.apiTokenId === body.apiTokenId),
    ).not.toHaveProperty('rawSecret');
  });

  test('null roleScopeJson inherits the creator roles and answers {}', async () => {
    const res = await create(owner.token, {
      name: 'inherit',
      roleScopeJson: null,
      expiresAtUtc: null,
    });
    expect(res.json().roleScopeJson).toBe('{}');
    const child = res.json().rawSecret;
    // It holds owner, so it may create an admin token.
    const grandchild = await create(child, {
      name: 'admin',
      roleScopeJson: '{"roles":["admin"]}',
      expiresAtUtc: null,
    });
    expect(grandchild.statusCode).toBe(201);
  });

  test('an identical request within the replay window returns the same token with replay true', async () => {
    const payload = { name: 'replayed', roleScopeJson: null, expiresAtUtc: null };
    const first = await create(owner.token, payload);
    const second = await create(owner.token, payload);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({
      apiTokenId: first.json().apiTokenId,
      rawSecret: first.json().rawSecret,
      replay: true,
    });
    const different = await create(owner.token, { ...payload, name: 'replayed-2' });
    expect(different.json().replay).toBe(false);
  });

  test.each([
    ['an empty name', { name: '  ', roleScopeJson: null, expiresAtUtc: null }, 'name'],
    [
      'malformed roleScopeJson',
      { name: 'x', roleScopeJson: '{roles:', expiresAtUtc: null },
      'roleScopeJson',
    ],
    [
      'roleScopeJson without roles',
      { name: 'x', roleScopeJson: '{"roles":[]}', expiresAtUtc: null },
      'roleScopeJson',
    ],
    [
      'an unknown role',
      { name: 'x', roleScopeJson: '{"roles":["root"]}', expiresAtUtc: null },
      'roleScopeJson',
    ],
    [
      'an expiry in the past',
      { name: 'x', roleScopeJson: null, expiresAtUtc: '2020-01-01T00:00:00Z' },
      'expiresAtUtc',
    ],
    [
      'an unparseable expiry',
      { name: 'x', roleScopeJson: null, expiresAtUtc: 'tomorrow' },
      'expiresAtUtc',
    ],
    ['a missing name', { roleScopeJson: null, expiresAtUtc: null }, 'name'],
    ['a name of the wrong type', { name: 5, roleScopeJson: null, expiresAtUtc: null }, 'name'],
  ])('422 with errors for %s', async (_label, payload, field) => {
    const before = await t.as(owner.token, { method: 'GET', url: '/api/v1/api-tokens' });
    const res = await create(owner.token, payload);
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(res.json().errors).toHaveProperty(field);
    const after = await t.as(owner.token, { method: 'GET', url: '/api/v1/api-tokens' });
    expect(after.json().items.length).toBe(before.json().items.length);
  });

  test('422 for more roles than the creator holds', async () => {
    const admin = await create(owner.token, {
      name: 'an-admin',
      roleScopeJson: '{"roles":["admin"]}',
      expiresAtUtc: null,
    });
    const res = await create(admin.json().rawSecret, {
      name: 'escalate',
      roleScopeJson: '{"roles":["owner"]}',
      expiresAtUtc: null,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.roleScopeJson[0]).toMatch(/more than the creator/);
  });

  test('403 when the caller lacks the role, before looking at the body', async () => {
    const viewer = await create(owner.token, {
      name: 'viewer',
      roleScopeJson: '{"roles":["viewer"]}',
      expiresAtUtc: null,
    });
    const res = await create(viewer.json().rawSecret, { name: '' });
    expect(res.statusCode).toBe(403);
    const list = await t.as(viewer.json().rawSecret, { method: 'GET', url: '/api/v1/api-tokens' });
    expect(list.statusCode).toBe(403);
  });

  test('403 when the plan lacks the feature', async () => {
    const t2 = await t.createTenant('enterprise');
    await t.database.system
      .updateTable('tenants')
      .set({ plan: 'trial' })
      .where('id', '=', t2.tenantId)
      .execute();
    const flags = await t.as(t2.token, { method: 'GET', url: '/api/v1/feature-flags' });
    expect(flags.json().plan).toBe('trial');
    const exportRes = await t.as(t2.token, { method: 'GET', url: '/api/v1/audit-log/export' });
    expect(exportRes.statusCode).toBe(403);
  });
});

describe('GET and DELETE /api/v1/api-tokens', () => {
  test('revocation keeps the token for audit with revokedAtUtc; a repeated DELETE is 404', async () => {
    const res = await create(owner.token, { name: 'old', roleScopeJson: null, expiresAtUtc: null });
    const id = res.json().apiTokenId;
    expect(
      (await t.as(owner.token, { method: 'DELETE', url: `/api/v1/api-tokens/${id}` })).statusCode,
    ).toBe(204);
    const again = await t.as(owner.token, { method: 'DELETE', url: `/api/v1/api-tokens/${id}` });
    expect(again.statusCode).toBe(404);
    const list = await t.as(owner.token, { method: 'GET', url: '/api/v1/api-tokens' });
    const item = list.json().items.find((i: { apiTokenId: string }) => i.apiTokenId === id);
    expect(item.revokedAtUtc).toEqual(expect.any(String));
    expect(list.json().totalEstimate).toBe(list.json().items.length);
  });

  test('lastUsedAtUtc is recorded without a write per request', async () => {
    const res = await create(owner.token, {
      name: 'used',
      roleScopeJson: null,
      expiresAtUtc: null,
    });
    const { apiTokenId, rawSecret } = res.json();
    const fresh = await t.as(owner.token, { method: 'GET', url: '/api/v1/api-tokens' });
    expect(
      fresh.json().items.find((i: { apiTokenId: string }) => i.apiTokenId === apiTokenId)
        .lastUsedAtUtc,
    ).toBeNull();
    for (let i = 0; i < 5; i++)
      await t.as(rawSecret, { method: 'GET', url: '/api/v1/feature-flags' });
    const row = () =>
      t.database.system
        .selectFrom('api_tokens')
        .select('last_used_at')
        .where('id', '=', apiTokenId)
        .executeTakeFirstOrThrow();
    // Not yet written: the uses wait in memory for the next flush...
    expect((await row()).last_used_at).toBeNull();
    // ...but the list already shows them,
    const listed = await t.as(owner.token, { method: 'GET', url: '/api/v1/api-tokens' });
    expect(
      listed.json().items.find((i: { apiTokenId: string }) => i.apiTokenId === apiTokenId)
        .lastUsedAtUtc,
    ).not.toBeNull();
    // and one flush writes them.
    await t.tokenUsage.flush();
    expect((await row()).last_used_at).toBeInstanceOf(Date);
  });
});
