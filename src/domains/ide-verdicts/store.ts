import type { Kysely } from 'kysely';
import { compositeKey } from '../../core/composite-key';
import type { DB } from '../../db/schema';

/** The lookups of one verdict batch: each one set-based statement, whatever the batch size. */

export interface VulnerabilityRow {
  id: string;
  canonical_id: string;
  aliases: string[];
  severity_rating: string | null;
  severity_score: string | number | null;
}

export async function vulnerabilityRows(
  db: Kysely<DB>,
  ids: readonly string[],
): Promise<VulnerabilityRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('vulnerabilities')
    .select(['id', 'canonical_id', 'aliases', 'severity_rating', 'severity_score'])
    .where('id', 'in', [...ids])
    .execute();
}

/** Exposure statuses in one repository of these packages, by package, version, vulnerability. */
export async function exposureStatuses(
  db: Kysely<DB>,
  repositoryId: string,
  packageIds: readonly string[],
): Promise<Map<string, string>> {
  const statuses = new Map<string, string>();
  if (packageIds.length === 0) return statuses;
  const rows = await db
    .selectFrom('vulnerability_exposures')
    .select(['package_id', 'version', 'vulnerability_id', 'status'])
    .where('repository_id', '=', repositoryId)
    .where('package_id', 'in', [...packageIds])
    .execute();
  for (const row of rows) {
    statuses.set(exposureKey(row.package_id, row.version, row.vulnerability_id), row.status);
  }
  return statuses;
}

export const exposureKey = (packageId: string, version: string, vulnerabilityId: string) =>
  compositeKey(packageId, version, vulnerabilityId);
