import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { DB } from '../../../db/schema';

/**
 * Keeps `dependency_first_seen` (migration 0058) in step as generation `scanId` becomes the
 * repository's current one, in the switch's transaction: a package it adds is first seen now, a
 * package it no longer has loses its row (added again later, it is new again). The questions'
 * "what changed" reads it for new dependencies (docs/questions.md).
 */
export async function recordFirstSeen(
  db: Kysely<DB>,
  repositoryId: string,
  scanId: string,
): Promise<void> {
  await db
    .deleteFrom('dependency_first_seen as f')
    .where('f.repository_id', '=', repositoryId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('repository_dependency_rows as d')
            .select('d.package_id')
            .where('d.repository_id', '=', repositoryId)
            .where('d.scan_id', '=', scanId)
            .whereRef('d.package_id', '=', 'f.package_id'),
        ),
      ),
    )
    .execute();
  await db
    .insertInto('dependency_first_seen')
    .columns(['repository_id', 'package_id', 'first_seen_at', 'first_seen_scan_id'])
    .expression((eb) =>
      eb
        .selectFrom('repository_dependency_rows as d')
        .select([
          'd.repository_id',
          'd.package_id',
          sql<Date>`now()`.as('first_seen_at'),
          'd.scan_id',
        ])
        .distinct()
        .where('d.repository_id', '=', repositoryId)
        .where('d.scan_id', '=', scanId),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}
