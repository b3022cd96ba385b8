import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { DEFAULT_RISK_SETTINGS } from '../../../intel/risk/indicators';
import { REPOSITORY_SUBJECT, repositoryQuantumFacts } from '../facts/quantum';
import { isRepositoryCondition } from '../facts/reads';
import { assembleFacts, type DependencyWithFacts, type RepositoryForFacts } from '../facts/store';
import type { PolicyRow } from '../store';
import { conditionOf } from './cel';

/**
 * The repository as the subject of repository conditions (docs/policies.md#repository-conditions):
 * its quantum facts, read once when an applicable policy has such a condition and the evaluation
 * is not narrowed to some packages; its dependency groups are empty.
 */
export async function repositorySubject(
  db: Kysely<DB>,
  repository: RepositoryForFacts,
  applicable: readonly PolicyRow[],
  packageIds: readonly string[] | null,
  now: Date,
): Promise<DependencyWithFacts | undefined> {
  if (packageIds !== null) return undefined;
  if (!applicable.some((p) => isRepositoryCondition(conditionOf(p).reads))) return undefined;
  return subjectOf(db, repository, now);
}

/** The repository with its quantum facts, as a repository condition sees it. */
export async function subjectOf(
  db: Kysely<DB>,
  repository: RepositoryForFacts,
  now: Date,
): Promise<DependencyWithFacts> {
  const facts = assembleFacts(
    {
      ecosystem: REPOSITORY_SUBJECT.ecosystem,
      name: REPOSITORY_SUBJECT.packageName,
      version: '',
      purl: REPOSITORY_SUBJECT.packageUrl,
      direct: true,
      scope: '',
      resolution: 'unpinned',
      file: '',
      files: [],
    },
    {
      exposures: [],
      drift: undefined,
      catalogue: undefined,
      usage: [],
      riskSettings: DEFAULT_RISK_SETTINGS,
    },
    {
      name: repository.name,
      criticality: repository.business_criticality ?? '',
      lifecycle: repository.lifecycle_status,
    },
    now,
  );
  facts.quantum = await repositoryQuantumFacts(db, repository.id, now);
  return { ...REPOSITORY_SUBJECT, facts, publishedAt: null };
}
