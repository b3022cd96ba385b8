import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../../db/schema';
import type { AdvisoryChangeHandler } from '../../../intel/advisory-store/import';
import type { PackageKey, SeverityRaise } from '../../../intel/advisory-store/store';
import { defineJob, type PayloadOf } from '../../../jobs/contract';
import { enqueue } from '../../../jobs/outbox';
import { emitEventToTenants } from '../../events';

/** Re-matches a tenant's exposures for the packages whose advisories changed. */
export const REMATCH = defineJob({
  name: 'exposures.rematch',
  payload: Type.Object({
    packages: Type.Array(Type.Object({ ecosystem: Type.String(), name: Type.String() })),
  }),
  expireInSeconds: 1800,
  retryLimit: 5,
});

export type RematchJob = PayloadOf<typeof REMATCH>;

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
      await enqueue(system, REMATCH, {
        tenantId,
        data: { packages: list.slice(i, i + 2000) },
        correlationId: options.correlationId ?? null,
      });
    }
  }
  return byTenant.size;
}

/**
 * Inside an advisory batch's transaction: one `vulnerability.severity_raised` event per tenant
 * that depends on a package the raised vulnerability names (one set-based read for the batch).
 */
export async function emitSeverityRaised(trx: Kysely<DB>, raised: SeverityRaise[]): Promise<void> {
  const pairs = raised.flatMap((r) => r.packages.map((p) => ({ id: r.vulnerabilityId, ...p })));
  if (pairs.length === 0) return;
  const rows = await sql<{ vulnerability_id: string; tenant_id: string }>`
    SELECT DISTINCT wanted.vulnerability_id, d.tenant_id
    FROM repository_dependencies d
    JOIN unnest(${pairs.map((p) => p.id)}::uuid[], ${pairs.map((p) => p.ecosystem)}::text[],
      ${pairs.map((p) => p.name)}::text[]) AS wanted(vulnerability_id, ecosystem, name)
      ON wanted.ecosystem = d.ecosystem AND wanted.name = d.name
    ORDER BY 1, 2`.execute(trx);
  for (const r of raised) {
    const tenants = rows.rows
      .filter((row) => row.vulnerability_id === r.vulnerabilityId)
      .map((row) => row.tenant_id);
    await emitEventToTenants(trx, 'vulnerability.severity_raised', tenants, {
      vulnerabilityId: r.vulnerabilityId,
      canonicalId: r.canonicalId,
      previousSeverity: r.previousSeverity,
      severity: r.severity,
      packages: r.packages,
    });
  }
}

/**
 * What follows an advisory import: re-matching the tenants using the changed packages, and the
 * severity-raised events inside each batch (src/intel/advisory-store/import.ts calls both).
 */
export const ADVISORY_CHANGES: AdvisoryChangeHandler = Object.assign(
  (system: Kysely<DB>, packages: PackageKey[], options: { correlationId?: string | null }) =>
    requestRematch(system, packages, options),
  { severityRaised: emitSeverityRaised },
);
