import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/** Tenant-side reads of drift snapshots; the tenant-scoped Kysely limits them to the caller. */

type Db = Kysely<DB>;

export async function repositoryExists(db: Db, repositoryId: string): Promise<boolean> {
  const row = await db
    .selectFrom('repositories')
    .select('id')
    .where('id', '=', repositoryId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function driftHistory(db: Db, repositoryId: string, take: number) {
  return db
    .selectFrom('repository_drift')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .orderBy('scanned_at', 'desc')
    .orderBy('scan_id', 'desc')
    .limit(take)
    .execute();
}
