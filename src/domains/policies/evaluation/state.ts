import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../db/schema';
import { FACT_GROUPS, type FactGroupName } from '../facts/definition';
import { groupJson } from '../facts/reads';
import type { DependencyWithFacts } from '../facts/store';

// `quantum` is the repository's (repository conditions are evaluated every time), never a
// dependency's: it is not part of what a dependency's digest compares.
const FACT_GROUP_NAMES = (Object.keys(FACT_GROUPS) as FactGroupName[]).filter(
  (group) => group !== 'quantum',
);

/**
 * What every policy last saw of a repository's dependencies (docs/policies.md#evaluation,
 * migration 0030): one digest of the facts per (package, version). An evaluation by the whole
 * policy set compares the facts it computed with them and evaluates only the dependencies whose
 * facts changed. The digest leaves out `release.ageDays` (it changes by the day) and takes the
 * publication date instead: conditions that read the age are evaluated over every dependency.
 */

export const stateKey = (packageId: string, version: string) => `${packageId} ${version}`;

/** The digest of a dependency's facts, without what changes by the day. */
export function stateDigest(dep: DependencyWithFacts): string {
  const hash = createHash('sha1');
  for (const group of FACT_GROUP_NAMES) {
    if (group === 'release') {
      const { known } = dep.facts.release;
      hash.update(`${known}:${dep.publishedAt?.toISOString() ?? ''}\u0001`);
    } else hash.update(`${groupJson(dep.facts, group)}\u0001`);
  }
  return hash.digest('base64url');
}

/**
 * Serialises evaluations of one repository (a scan's and its exposure refresh's jobs run side by
 * side): the second reads the state and violations the first committed.
 */
export async function lockRepositoryEvaluation(db: Kysely<DB>, repositoryId: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`policies:${repositoryId}`}, 0))`.execute(
    db,
  );
}

/** The stored digests by state key; null when no evaluation by every policy ran yet. */
export async function loadEvaluationState(
  db: Kysely<DB>,
  repositoryId: string,
): Promise<Map<string, string> | null> {
  const row = await db
    .selectFrom('policy_evaluation_states')
    .select('digests')
    .where('repository_id', '=', repositoryId)
    .executeTakeFirst();
  return row ? new Map(Object.entries(row.digests)) : null;
}

/** Sets the digests of `changed` and forgets `removed` (one statement, a patch of the document). */
export async function saveEvaluationState(
  db: Kysely<DB>,
  repositoryId: string,
  change: { changed: Record<string, string>; removed: readonly string[] },
): Promise<void> {
  if (Object.keys(change.changed).length === 0 && change.removed.length === 0) return;
  const patch = JSON.stringify(change.changed);
  await sql`
    INSERT INTO policy_evaluation_states (repository_id, digests)
    VALUES (${repositoryId}, ${patch}::jsonb)
    ON CONFLICT (tenant_id, repository_id) DO UPDATE SET
      digests = (policy_evaluation_states.digests - ${[...change.removed]}::text[])
        || ${patch}::jsonb,
      updated_at = now()`.execute(db);
}
