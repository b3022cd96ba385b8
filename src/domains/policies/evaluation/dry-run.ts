import type { Kysely } from 'kysely';
import { compositeKey } from '../../../core/composite-key';
import { notFound, unprocessable } from '../../../core/problem';
import type { DB } from '../../../db/schema';
import type { RiskSettings } from '../../../intel/risk/indicators';
import type { DependencyWithFacts } from '../facts/store';
import { repositoryFacts } from '../facts/store';
import { findPolicy } from '../store';
import { compileCondition, conditionOf } from './cel';
import { appliesTo, matchingDependencies } from './evaluate';

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

export async function testPolicy(
  db: Kysely<DB>,
  policyId: string,
  request: DryRunRequest,
  riskSettings: RiskSettings,
) {
  const policy = await findPolicy(db, policyId);
  if (!policy) throw notFound('The policy');
  let holds = conditionOf(policy).holds;
  if (request.condition !== undefined) {
    const compiled = compileCondition(request.condition);
    if (!compiled.ok) {
      throw unprocessable('The condition is not a valid policy condition.', {
        condition: compiled.errors,
      });
    }
    holds = compiled.condition.holds;
  }
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
      ? await repositoryFacts(db, repository, new Date(), null, riskSettings)
      : [];
    if (inScope) counts.repositoriesEvaluated++;
    counts.dependenciesEvaluated += dependencies.length;
    for (const dependency of matchingDependencies(policy, holds, dependencies)) {
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
