import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { PackageMetadata } from '../../ecosystems/registry-types';

/**
 * What one registry answer changed about a package, as seen against what was stored before it
 * (docs/package-intelligence.md#changes). A first fetch changes nothing: there is no "before" to
 * compare with, and every fact would look new. What follows a change (events to the tenants
 * using the package) is the caller's handler: the catalogue knows no tenant.
 */
export interface PreviousState {
  deprecated: string | null;
  maintainers: string[];
  latestStable: string | null;
  yanked: Set<string>;
}

export interface CatalogueChange {
  package: { id: string; ecosystem: string; name: string };
  deprecated?: { message: string; successor: string | null };
  yanked?: string[];
  maintainers?: { added: string[]; removed: string[] };
  released?: { version: string; previousVersion: string | null };
  health?: { previousScore: number | null; score: number };
}

/** Runs in the transaction that stored the change. */
export type CatalogueChangeHandler = (trx: Kysely<DB>, change: CatalogueChange) => Promise<void>;

/** The stored state a new answer is compared with (null: nothing found was stored yet). */
export async function previousState(
  trx: Kysely<DB>,
  packageId: string,
): Promise<PreviousState | null> {
  const row = await trx
    .selectFrom('package_metadata')
    .select(['status', 'deprecated', 'maintainers', 'latest_stable'])
    .where('package_id', '=', packageId)
    .forUpdate()
    .executeTakeFirst();
  if (row?.status !== 'found') return null;
  const yanked = await trx
    .selectFrom('package_versions')
    .select('version')
    .where('package_id', '=', packageId)
    .where('yanked', '=', true)
    .execute();
  return {
    deprecated: row.deprecated,
    maintainers: row.maintainers,
    latestStable: row.latest_stable,
    yanked: new Set(yanked.map((v) => v.version)),
  };
}

/** The changes between the stored state and a new (not 304) answer. Pure. */
export function metadataChanges(
  previous: PreviousState,
  metadata: PackageMetadata,
): Omit<CatalogueChange, 'package' | 'health'> {
  const change: Omit<CatalogueChange, 'package' | 'health'> = {};
  if (!previous.deprecated && metadata.deprecated) {
    change.deprecated = { message: metadata.deprecated, successor: metadata.successor };
  }
  const yanked = metadata.versions
    .filter((v) => v.yanked && !previous.yanked.has(v.version))
    .map((v) => v.version);
  if (yanked.length > 0) change.yanked = yanked;
  // An empty list before means the registry did not say: not a change of people.
  if (previous.maintainers.length > 0) {
    const before = new Set(previous.maintainers);
    const after = new Set(metadata.maintainers);
    const added = [...after].filter((m) => !before.has(m)).sort();
    const removed = [...before].filter((m) => !after.has(m)).sort();
    if (after.size > 0 && (added.length > 0 || removed.length > 0)) {
      change.maintainers = { added, removed };
    }
  }
  const known = new Set(metadata.versions.map((v) => v.version));
  if (
    metadata.latestStable &&
    previous.latestStable &&
    metadata.latestStable !== previous.latestStable &&
    known.has(previous.latestStable) &&
    ordinalOf(metadata, metadata.latestStable) > ordinalOf(metadata, previous.latestStable)
  ) {
    change.released = { version: metadata.latestStable, previousVersion: previous.latestStable };
  }
  return change;
}

/** Position in the registry's order (versions are listed oldest first). */
function ordinalOf(metadata: PackageMetadata, version: string): number {
  return metadata.versions.findIndex((v) => v.version === version);
}

export function hasChanges(change: Omit<CatalogueChange, 'package'>): boolean {
  return Object.values(change).some((value) => value !== undefined);
}
