import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Role } from '../../src/core/roles';
import { listTenantTables } from '../../src/domains/tenants/catalogue';
import type { TestApp, TestTenant } from './test-app';

/**
 * A token of the tenant holding only `role`, created through the API by its owner. A second
 * token of one role needs its own `name` (the same name again is a replay of the first).
 */
export async function tokenWithRole(
  t: TestApp,
  tenant: TestTenant,
  role: Role,
  name = `${role} token`,
): Promise<string> {
  const res = await t.as(tenant.token, {
    method: 'POST',
    url: '/api/v1/api-tokens',
    payload: {
      name,
      roleScopeJson: JSON.stringify({ roles: [role] }),
      expiresAtUtc: null,
    },
  });
  if (res.statusCode !== 201) throw new Error(`token for ${role}: ${res.statusCode} ${res.body}`);
  return res.json().rawSecret;
}

/** Rows of the tenant in every table with a tenant_id column, read from the catalogue. */
export async function tenantRowCounts(
  t: TestApp,
  tenantId: string,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await listTenantTables(t.database.system)) {
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table.name)}
      WHERE tenant_id = ${tenantId}::uuid`.execute(t.database.system);
    counts[table.name] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

interface ColumnRow {
  schema: string;
  own: boolean;
  table: string;
  column: string;
  type: string;
}

/**
 * Every place in the database that still holds `value`, found without the deletion's table
 * list: each column that can carry an id (uuid, text, json, arrays) of every base table of the
 * service's schema and of pg-boss's (job payloads), read from information_schema. Answers
 * `table.column` (`pgboss.table.column`) → rows for the columns holding it (none: `{}`).
 */
export async function rowsMentioning(t: TestApp, value: string): Promise<Record<string, number>> {
  const db = t.database.system;
  const { rows: columns } = await sql<ColumnRow>`
    SELECT c.table_schema AS schema, c.table_schema = current_schema() AS own,
      c.table_name AS table, c.column_name AS column, c.data_type AS type
    FROM information_schema.columns c
    JOIN information_schema.tables b
      ON b.table_schema = c.table_schema AND b.table_name = c.table_name
    WHERE c.table_schema IN (current_schema(), 'pgboss') AND b.table_type = 'BASE TABLE'
      AND c.data_type IN ('uuid', 'text', 'character varying', 'json', 'jsonb', 'ARRAY')
    ORDER BY 1, 2, 3`.execute(db);
  expect(columns.length).toBeGreaterThan(100);
  const found: Record<string, number> = {};
  for (const { schema, own, table, column, type } of columns) {
    const ref = sql.ref(`${schema}.${table}.${column}`);
    const match =
      type === 'uuid' ? sql`${ref} = ${value}::uuid` : sql`${ref}::text LIKE ${`%${value}%`}`;
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(
      `${schema}.${table}`,
    )} WHERE ${match}`.execute(db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) found[`${own ? '' : `${schema}.`}${table}.${column}`] = n;
  }
  return found;
}
