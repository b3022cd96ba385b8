import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { ExtractedFile } from '../../ecosystems/extract-tree';
import { analyseReachability, type ReachabilityFact } from '../../intel/reachability/analyse';
import type { GenerationTarget } from './generations';

/**
 * The scan's import-level reachability step (docs/reachability.md): run on the checked-out tree
 * after extraction, stored with the dependencies' switch so that the facts always describe the
 * current generation; exposure matching copies them onto exposures.
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

/** Replaces the repository's facts with the scan's (inside the switch transaction). */
export async function replaceReachability(
  db: Kysely<DB>,
  target: GenerationTarget,
  facts: readonly ReachabilityFact[],
): Promise<void> {
  await db
    .deleteFrom('repository_reachability')
    .where('repository_id', '=', target.repositoryId)
    .execute();
  for (let i = 0; i < facts.length; i += 500) {
    await db
      .insertInto('repository_reachability')
      .values(
        facts.slice(i, i + 500).map((fact) => ({
          repository_id: target.repositoryId,
          scan_id: target.scanId,
          ecosystem: fact.ecosystem,
          name: fact.name,
          reachability: fact.reachability,
          evidence: fact.evidence === null ? null : JSON.stringify(fact.evidence),
          reason: fact.reason,
        })),
      )
      .execute();
  }
}
