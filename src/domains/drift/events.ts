import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { changedPackageIds, emitEvent } from '../events';

/**
 * `dependency_drift.changed`: the drift of these packages' dependencies changed in the
 * repository's snapshot. Drift is a fact of policies, which evaluate those dependencies again on
 * it; emitted in the snapshot's transaction, and not at all when nothing changed.
 */
export async function emitDriftChanged(
  db: Kysely<DB>,
  tenantId: string,
  repositoryId: string,
  packageIds: readonly string[],
): Promise<void> {
  if (packageIds.length === 0) return;
  await emitEvent(db, 'dependency_drift.changed', {
    tenantId,
    data: { repositoryId, packageIds: changedPackageIds(packageIds) },
  });
}
