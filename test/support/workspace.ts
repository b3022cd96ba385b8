import { sql } from 'kysely';
import type { Role } from '../../src/core/roles';
import { listTenantTables } from '../../src/domains/tenants/catalogue';
import type { TestApp, TestTenant } from './test-app';

/** A token of the tenant holding only `role`, created through the API by its owner. */
export async function tokenWithRole(t: TestApp, tenant: TestTenant, role: Role): Promise<string> {
  const res = await t.as(tenant.token, {
    method: 'POST',
    url: '/api/v1/api-tokens',
    payload: {
      name: `${role} token`,
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
