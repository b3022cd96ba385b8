import { describe, expect, test } from 'vitest';
import { openTestDatabase } from '../../test/support/test-app';
import { listMigrations, migrate } from './migrate';

describe('migrations', () => {
  test('are idempotent: a second run applies nothing and changes nothing', async () => {
    const database = await openTestDatabase();
    try {
      const tables = async () =>
        (
          await database.pool.query(
            "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'",
          )
        ).rows[0].n;
      const before = await tables();
      const second = await migrate(database.pool);
      expect(second.applied).toEqual([]);
      expect(second.skipped).toEqual(listMigrations());
      expect(await tables()).toBe(before);
    } finally {
      await database.close();
    }
  });

  test('every tenant-owned table has row-level security forced', async () => {
    const database = await openTestDatabase();
    try {
      const result = await database.pool.query<{
        relname: string;
        relrowsecurity: boolean;
        relforcerowsecurity: boolean;
      }>(
        `SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity FROM pg_class c
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id'
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`,
      );
      expect(result.rows.length).toBeGreaterThan(0);
      for (const row of result.rows) {
        expect(row.relrowsecurity && row.relforcerowsecurity, row.relname).toBe(true);
      }
    } finally {
      await database.close();
    }
  });

  test('every tenant-owned table defaults tenant_id to the scoped tenant', async () => {
    const database = await openTestDatabase();
    try {
      const result = await database.pool.query<{ relname: string; fallback: string | null }>(
        `SELECT c.relname, pg_get_expr(d.adbin, d.adrelid) AS fallback FROM pg_class c
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id'
         JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
         WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relrowsecurity`,
      );
      expect(result.rows.length).toBeGreaterThan(0);
      for (const row of result.rows) {
        expect(row.fallback, row.relname).toBe('dw_current_tenant()');
      }
    } finally {
      await database.close();
    }
  });

  test('a scoped insert without tenant_id gets the scope; another tenant id is refused', async () => {
    const database = await openTestDatabase();
    try {
      const tenantA = '018f0000-0000-7000-8000-00000000000a';
      const tenantB = '018f0000-0000-7000-8000-00000000000b';
      for (const id of [tenantA, tenantB]) {
        await database.pool.query("INSERT INTO tenants (id, name, plan) VALUES ($1, 't', 'team')", [
          id,
        ]);
      }
      const client = await database.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query("SELECT set_config('app.tenant_id', $1, true)", [tenantA]);
        await client.query("SELECT set_config('role', 'driftwatch_app', true)");
        const inserted = await client.query<{ tenant_id: string }>(
          `INSERT INTO audit_log (id, action, resource_type, outcome, status_code, correlation_id)
           VALUES ('018f0000-0000-7000-8000-0000000000a1', 'test.insert', 'test', 'success', 200, 'c')
           RETURNING tenant_id`,
        );
        expect(inserted.rows[0]?.tenant_id).toBe(tenantA);
        await expect(
          client.query(
            `INSERT INTO audit_log (id, tenant_id, action, resource_type, outcome, status_code, correlation_id)
             VALUES ('018f0000-0000-7000-8000-0000000000a2', $1, 'test.insert', 'test', 'success', 200, 'c')`,
            [tenantB],
          ),
        ).rejects.toThrow(/row-level security/);
        await client.query('ROLLBACK');
      } finally {
        client.release();
      }
    } finally {
      await database.close();
    }
  });
});
