import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/connection';
import type { DB } from '../../../db/schema';
import { withTenant } from '../../../db/tenant-scope';
import type { ExtractedFile } from '../../../ecosystems/extract-tree';
import { analyseReachability, type ReachabilityFact } from '../../../intel/reachability/analyse';
import type { GenerationTarget, StoreFence } from '../dependencies/generations';

/**
 * The scan's import-level reachability step (docs/reachability.md): run on the checked-out tree
 * after extraction, stored just before the dependencies' switch (in chunks), so that exposure
 * matching, which runs after the switch and copies them onto exposures, sees the scan's facts.
 */

export async function computeReachability(
  directory: string,
  files: readonly ExtractedFile[],
): Promise<ReachabilityFact[]> {
  const dependencies = files.flatMap((file) =>
    file.dependencies.map((d) => ({
      ecosystem: file.ecosystem,
      name: d.name,
      scope: d.scope,
      parents: d.parents,
      manifest: file.path,
    })),
  );
  return analyseReachability(directory, dependencies);
}

/** Facts per transaction while storing them. */
export const REACHABILITY_CHUNK_ROWS = 500;

/**
 * Replaces the repository's facts with the scan's, before the switch, in short fenced
 * transactions: the scan's facts are upserted chunk by chunk, then the facts no longer found are
 * deleted. Only exposure matching reads them, and it runs after the switch, so it sees the
 * scan's facts whole; on the embedded database requests get the connection between chunks
 * (158,877 facts in the switch's transaction held it for seconds). False when the fence failed.
 */
export async function stageReachability(
  database: Database,
  target: GenerationTarget,
  facts: readonly ReachabilityFact[],
  fence: StoreFence,
  chunkRows = REACHABILITY_CHUNK_ROWS,
): Promise<boolean> {
  for (let i = 0; i < facts.length; i += chunkRows) {
    const stored = await withTenant(database, target.tenantId, async (db) => {
      if (!(await fence(db))) return false;
      await upsertFacts(db, target, facts.slice(i, i + chunkRows));
      return true;
    });
    if (!stored) return false;
    await yieldToEventLoop();
  }
  for (;;) {
    const deleted = await withTenant(database, target.tenantId, async (db) => {
      if (!(await fence(db))) return null;
      const stale = await db
        .deleteFrom('repository_reachability')
        .where('repository_id', '=', target.repositoryId)
        .where('scan_id', '!=', target.scanId)
        .where(
          sql<boolean>`(ecosystem, name) IN (SELECT ecosystem, name FROM repository_reachability
            WHERE repository_id = ${target.repositoryId} AND scan_id != ${target.scanId}
            LIMIT ${chunkRows * 2})`,
        )
        .executeTakeFirst();
      return Number(stale.numDeletedRows);
    });
    if (deleted === null) return false;
    if (deleted === 0) return true;
    await yieldToEventLoop();
  }
}

async function upsertFacts(
  db: Kysely<DB>,
  target: GenerationTarget,
  facts: readonly ReachabilityFact[],
): Promise<void> {
  if (facts.length === 0) return;
  await db
    .insertInto('repository_reachability')
    .values(
      facts.map((fact) => ({
        repository_id: target.repositoryId,
        scan_id: target.scanId,
        ecosystem: fact.ecosystem,
        name: fact.name,
        reachability: fact.reachability,
        evidence: fact.evidence === null ? null : JSON.stringify(fact.evidence),
        reason: fact.reason,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'repository_id', 'ecosystem', 'name']).doUpdateSet({
        scan_id: sql`excluded.scan_id`,
        reachability: sql`excluded.reachability`,
        evidence: sql`excluded.evidence`,
        reason: sql`excluded.reason`,
      }),
    )
    .execute();
}
