import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { hashToken } from '../security/tokens';
import { openAuthenticatedScope } from './authenticate';

describe('authenticated scopes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('never lets one request inherit the scope a previous request left on its connection', async () => {
    const a = await t.createTenant();
    const b = await t.createTenant();
    const ids = async (token: string) => {
      const res = await t.as(token, { method: 'GET', url: '/api/v1/api-tokens' });
      expect(res.statusCode).toBe(200);
      return res.json().items.map((item: { apiTokenId: string }) => item.apiTokenId);
    };
    // Sequential requests reuse the same idle connection: alternate tenants and failures on it.
    for (let round = 0; round < 5; round++) {
      expect(await ids(a.token)).toEqual([a.tokenId]);
      const unknown = await t.as('dw_unknown', { method: 'GET', url: '/api/v1/api-tokens' });
      expect(unknown.statusCode).toBe(401);
      expect(await ids(b.token)).toEqual([b.tokenId]);
    }
  });

  it('resets role and tenant before looking up the next token (read sessions)', async () => {
    const a = await t.createTenant();
    const b = await t.createTenant();
    const first = await openAuthenticatedScope(t.database, hashToken(a.token), { kind: 'session' });
    expect(first?.principal.tenantId).toBe(a.tenantId);
    await first?.scope.commit();
    // Whatever connection comes next, B's token is found although A's scope may linger on it.
    for (let i = 0; i < 3; i++) {
      const next = await openAuthenticatedScope(t.database, hashToken(b.token), {
        kind: 'session',
      });
      expect(next?.principal.tenantId).toBe(b.tenantId);
      const rows = await next?.scope.db.selectFrom('api_tokens').select('tenant_id').execute();
      expect(rows?.map((row) => row.tenant_id)).toEqual([b.tenantId]);
      await next?.scope.commit();
    }
    const none = await openAuthenticatedScope(t.database, hashToken('dw_nobody'), {
      kind: 'session',
    });
    expect(none).toBeNull();
  });
});
