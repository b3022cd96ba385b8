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
});
