import type { Kysely } from 'kysely';
import { compositeKey } from '../../../core/composite-key';
import { notFound, unprocessable } from '../../../core/problem';
import type { DB } from '../../../db/schema';
import type { RiskSettings } from '../../../intel/risk/indicators';
import { isRepositoryCondition } from '../facts/reads';
import type { DependencyWithFacts, RepositoryForFacts } from '../facts/store';
import { repositoryFacts } from '../facts/store';
import { findPolicy, type PolicyRow } from '../store';
import { type CompiledCondition, compileCondition, conditionOf } from './cel';
import { appliesTo, matchingDependencies } from './evaluate';
import { subjectOf } from './repository-subject';

/**
 * The dry run (POST /api/v1/policies/{policyId}/test, docs/policies.md#dry-run): the stored
 * policy, or a draft condition, over the tenant's current dependencies. Reads only: it writes no
 * violation, event or audit entry, and evaluates a disabled policy as if it were enabled.
 */

export interface DryRunRequest {
  condition?: string;
  repositoryId?: string;
  take?: number;
}

export interface WouldBeViolation {
  repositoryId: string;
  dependency: DependencyWithFacts;
  existing: { id: string; status: string } | undefined;
}

const DEFAULT_TAKE = 200;

/** What a condition is tried on: the repository itself (a repository condition), or its dependencies. */
async function candidatesIn(
  db: Kysely<DB>,
  repository: RepositoryForFacts,
  repositoryCondition: boolean,
  riskSettings: RiskSettings,
): Promise<DependencyWithFacts[]> {
  if (repositoryCondition) return [await subjectOf(db, repository, new Date())];
  return repositoryFacts(db, repository, new Date(), null, riskSettings);
}

/** The stored policy's condition, or the draft one (422 when it does not compile). */
function conditionFor(policy: PolicyRow, draft: string | undefined): CompiledCondition {
  if (draft === undefined) return conditionOf(policy);
  const compiled = compileCondition(draft);
  if (!compiled.ok) {
    throw unprocessable('The condition is not a valid policy condition.', {
      condition: compiled.errors,
    });
  }
  return compiled.condition;
}

export async function testPolicy(
  db: Kysely<DB>,
  policyId: string,
  request: DryRunRequest,
  riskSettings: RiskSettings,
) {
  const policy = await findPolicy(db, policyId);
  if (!policy) throw notFound('The policy');
  const { holds, reads } = conditionFor(policy, request.condition);
  let repositories = db
    .selectFrom('repositories')
    .select(['id', 'name', 'business_criticality', 'lifecycle_status'])
    .orderBy('name')
    .orderBy('id');
  if (request.repositoryId) repositories = repositories.where('id', '=', request.repositoryId);
  const rows = await repositories.execute();
  if (request.repositoryId && rows.length === 0) throw notFound('The repository');

  const take = request.take ?? DEFAULT_TAKE;
  const counts = {
    repositoriesEvaluated: 0,
    dependenciesEvaluated: 0,
    violations: 0,
    new: 0,
    wouldResolve: 0,
  };
  const listed: WouldBeViolation[] = [];
  const asEnabled = { ...policy, enabled: true };
  for (const repository of rows) {
    const unresolved = await db
      .selectFrom('policy_violations')
      .select(['id', 'status', 'package_id', 'version'])
      .where('policy_id', '=', policy.id)
      .where('repository_id', '=', repository.id)
      .where('status', '<>', 'resolved')
      .execute();
    const existing = new Map(unresolved.map((v) => [compositeKey(v.package_id, v.version), v]));
    const inScope = appliesTo(asEnabled, repository);
    const dependencies = inScope
      ? await candidatesIn(db, repository, isRepositoryCondition(reads), riskSettings)
      : [];
    if (inScope) counts.repositoriesEvaluated++;
    counts.dependenciesEvaluated += dependencies.length;
    const matches = isRepositoryCondition(reads)
      ? dependencies.filter((subject) => holds(subject.facts))
      : matchingDependencies(policy, holds, dependencies);
    for (const dependency of matches) {
      const key = compositeKey(dependency.packageId, dependency.version);
      const current = existing.get(key);
      existing.delete(key);
      counts.violations++;
      if (!current) counts.new++;
      if (listed.length < take)
        listed.push({ repositoryId: repository.id, dependency, existing: current });
    }
    counts.wouldResolve += existing.size;
  }
  return {
    policyId: policy.id,
    condition: request.condition ?? policy.condition,
    counts,
    violations: listed.map((item) => ({
      repositoryId: item.repositoryId,
      packageId: item.dependency.packageId,
      purl: item.dependency.packageUrl,
      ecosystem: item.dependency.ecosystem,
      packageName: item.dependency.packageName,
      version: item.dependency.version === '' ? null : item.dependency.version,
      existingViolationId: item.existing?.id ?? null,
      existingStatus: item.existing?.status ?? null,
      facts: item.dependency.facts,
    })),
    truncated: counts.violations > listed.length,
  };
}
