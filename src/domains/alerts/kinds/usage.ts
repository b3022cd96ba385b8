import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';

/** The tenant's repositories that depend on a package (at one of `versions`, when given). */
export async function repositoriesUsing(
  db: Kysely<DB>,
  packageId: string,
  versions?: readonly string[],
): Promise<string[]> {
  if (versions && versions.length === 0) return [];
  let query = db
    .selectFrom('repository_dependencies')
    .select('repository_id')
    .distinct()
    .where('package_id', '=', packageId);
  if (versions) query = query.where('version', 'in', [...versions]);
  const rows = await query.orderBy('repository_id').execute();
  return rows.map((row) => row.repository_id);
}

/** Whether the tenant watches a package. */
export async function isWatched(db: Kysely<DB>, packageId: string): Promise<boolean> {
  const row = await db
    .selectFrom('package_watches')
    .select('package_id')
    .where('package_id', '=', packageId)
    .executeTakeFirst();
  return row !== undefined;
}
