import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { PackageKey } from '../../intel/advisory-store/store';
import { enqueueJob } from '../../jobs/outbox';

/** Re-matches a tenant's exposures for the packages whose advisories changed. */
export const REMATCH_JOB = 'exposures.rematch';

export interface RematchJob {
  packages: PackageKey[];
}

/**
 * One `exposures.rematch` job per tenant that has a repository dependency on one of `packages`,
 * carrying only the packages that tenant uses. A cross-tenant read of dependency names only
 * (system work: the advisory change has no tenant); the matching itself runs tenant-scoped.
 */
export async function requestRematch(
  system: Kysely<DB>,
  packages: PackageKey[],
  options: { correlationId?: string | null } = {},
): Promise<number> {
  const byTenant = new Map<string, PackageKey[]>();
  for (let i = 0; i < packages.length; i += 5000) {
    const part = packages.slice(i, i + 5000);
    const rows = await sql<{ tenant_id: string; ecosystem: string; name: string }>`
      SELECT DISTINCT d.tenant_id, d.ecosystem, d.name
      FROM repository_dependencies d
      JOIN unnest(${part.map((p) => p.ecosystem)}::text[], ${part.map((p) => p.name)}::text[])
        AS wanted(ecosystem, name) ON wanted.ecosystem = d.ecosystem AND wanted.name = d.name`.execute(
      system,
    );
    for (const row of rows.rows) {
      const list = byTenant.get(row.tenant_id) ?? [];
      list.push({ ecosystem: row.ecosystem, name: row.name });
      byTenant.set(row.tenant_id, list);
    }
  }
  for (const [tenantId, list] of byTenant) {
    for (let i = 0; i < list.length; i += 2000) {
      await enqueueJob<RematchJob>(system, {
        tenantId,
        name: REMATCH_JOB,
        data: { packages: list.slice(i, i + 2000) },
        correlationId: options.correlationId ?? null,
      });
    }
  }
  return byTenant.size;
}
