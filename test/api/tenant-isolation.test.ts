import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withTenant } from '../../src/db/tenant-scope';
import { twoTenants } from '../support/scenarios';
import { createTestApp, type TestApp, type TestTenant } from '../support/test-app';

let t: TestApp;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  t = await createTestApp();
  ({ a, b } = await twoTenants(t, 'enterprise', ['Tenant A', 'Tenant B']));
});
afterAll(async () => t?.close());

describe('tenant isolation', () => {
  test("tenant B never sees tenant A's tokens and gets 404 deleting one", async () => {
    const created = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'a-ci', roleScopeJson: null, expiresAtUtc: null },
    });
    const { apiTokenId } = created.json();
    const listB = await t.as(b.token, { method: 'GET', url: '/api/v1/api-tokens' });
    const ids = listB.json().items.map((item: { apiTokenId: string }) => item.apiTokenId);
    expect(ids).toEqual([b.tokenId]);
    const deleteB = await t.as(b.token, {
      method: 'DELETE',
      url: `/api/v1/api-tokens/${apiTokenId}`,
    });
    expect(deleteB.statusCode).toBe(404);
    const listA = await t.as(a.token, { method: 'GET', url: '/api/v1/api-tokens' });
    const stillActive = listA
      .json()
      .items.find((item: { apiTokenId: string }) => item.apiTokenId === apiTokenId);
    expect(stillActive.revokedAtUtc).toBeNull();
  });

  test("tenant B never sees tenant A's audit entries", async () => {
    const auditA = await t.as(a.token, { method: 'GET', url: '/api/v1/audit-log' });
    expect(auditA.json().items.length).toBeGreaterThan(0);
    const auditB = await t.as(b.token, { method: 'GET', url: '/api/v1/audit-log' });
    const actors = new Set(
      auditB.json().items.map((item: { actorTokenId: string }) => item.actorTokenId),
    );
    expect(actors.has(a.tokenId)).toBe(false);
    const exportB = await t.as(b.token, { method: 'GET', url: '/api/v1/audit-log/export' });
    expect(exportB.body).not.toContain(a.tokenId);
  });

  test('row-level security refuses other tenants rows even to a query without a tenant filter', async () => {
    const rows = await withTenant(t.database, b.tenantId, (db) =>
      db.selectFrom('api_tokens').select(['tenant_id']).execute(),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.tenant_id))).toEqual(new Set([b.tenantId]));
    const tenants = await withTenant(t.database, b.tenantId, (db) =>
      db.selectFrom('tenants').select('id').execute(),
    );
    expect(tenants.map((row) => row.id)).toEqual([b.tenantId]);
  });

  test('row-level security refuses writes into another tenant', async () => {
    await expect(
      withTenant(t.database, b.tenantId, (db) =>
        db
          .insertInto('audit_log')
          .values({
            tenant_id: a.tenantId,
            id: '01900000-0000-7000-8000-00000000abcd',
            action: 'forged',
            resource_type: 'x',
            outcome: 'success',
            status_code: 200,
            correlation_id: 'c',
          })
          .execute(),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  test('without a tenant set, the application role sees nothing', async () => {
    const client = await t.database.pool.connect();
    try {
      await client.query("BEGIN; SELECT set_config('role', 'driftwatch_app', true)");
      const result = await client.query('SELECT count(*)::int AS n FROM api_tokens');
      expect(result.rows[0].n).toBe(0);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  test('the scope is transaction-local: it does not leak to the next user of the connection', async () => {
    await withTenant(t.database, a.tenantId, async () => {});
    const result = await sql<{
      tenant: string | null;
      role: string;
    }>`SELECT current_setting('app.tenant_id', true) AS tenant, current_user AS role`.execute(
      t.database.system,
    );
    expect(result.rows[0]?.tenant ?? '').toBe('');
    expect(result.rows[0]?.role).not.toBe('driftwatch_app');
  });
});
