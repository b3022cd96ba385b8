import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/connection';
import type { DB } from '../../db/schema';
import { enqueueJob } from '../../jobs/outbox';
import type { RejectedRecord } from '../osv/types';
import type { ReadResult } from './read';
import { type PackageKey, storeAdvisoryBatch } from './store';

/**
 * Imports read records into the store in batches (one system transaction each) and then asks for
 * the re-matching of exactly the packages the changed advisories name, for every tenant whose
 * repositories use them: one `exposures.rematch` job per tenant, through the outbox.
 */
export const REMATCH_JOB = 'exposures.rematch';

export interface RematchJob {
  packages: PackageKey[];
}

export interface ImportSummary {
  read: number;
  added: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** The first rejected records (at most 50), with why. */
  rejections: RejectedRecord[];
  changedPackages: number;
  changedVulnerabilities: number;
  /** Tenants asked to re-match their exposures. */
  tenantsNotified: number;
}

const BATCH = 500;

export async function importRecords(
  database: Database,
  read: ReadResult,
  options: { correlationId?: string | null } = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = {
    read: read.records.length + read.rejected.length,
    added: 0,
    updated: 0,
    unchanged: 0,
    rejected: read.rejected.length,
    rejections: read.rejected.slice(0, 50),
    changedPackages: 0,
    changedVulnerabilities: 0,
    tenantsNotified: 0,
  };
  const packages = new Map<string, PackageKey>();
  const vulnerabilities = new Set<string>();
  for (let i = 0; i < read.records.length; i += BATCH) {
    const batch = read.records.slice(i, i + BATCH);
    const result = await database.system
      .transaction()
      .execute((trx) => storeAdvisoryBatch(trx, batch));
    summary.added += result.added;
    summary.updated += result.updated;
    summary.unchanged += result.unchanged;
    for (const p of result.changedPackages) packages.set(`${p.ecosystem}\u0000${p.name}`, p);
    for (const id of result.changedVulnerabilities) vulnerabilities.add(id);
  }
  summary.changedPackages = packages.size;
  summary.changedVulnerabilities = vulnerabilities.size;
  if (packages.size > 0) {
    summary.tenantsNotified = await requestRematch(
      database.system,
      [...packages.values()],
      options,
    );
  }
  return summary;
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
