import { createHash } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { emitEvents, type PolicyViolationOpened } from '../../jobs/outbox';
import { conditionOf } from './cel';
import { coveringException } from './coverage';
import { activeExceptions, type CoveringException } from './exception-store';
import { type DependencyWithFacts, type RepositoryForFacts, repositoryFacts } from './facts-store';
import { initialStatus, systemMove } from './state-machine';
import { allPolicies, type PolicyRow } from './store';
import type { ViolationStatus } from './tables';
import { applySystemUpdates, type SystemUpdate } from './violation-store';

/**
 * Evaluates policies over one repository and brings its violations in line
 * (docs/policies.md#evaluation): opens, reopens, excepts and resolves them with a few set-based
 * statements, and emits `policy_violation.opened` in the same transaction.
 */

export interface EvaluationCounts {
  policies: number;
  dependencies: number;
  opened: number;
  reopened: number;
  excepted: number;
  resolved: number;
  held: number;
}

const NONE: EvaluationCounts = {
  policies: 0,
  dependencies: 0,
  opened: 0,
  reopened: 0,
  excepted: 0,
  resolved: 0,
  held: 0,
};

/** Whether the policy is enabled and its scope includes the repository. */
export function appliesTo(policy: PolicyRow, repository: RepositoryForFacts): boolean {
  const scope = policy.scope;
  if (!policy.enabled) return false;
  if (scope.repositoryIds.length > 0 && !scope.repositoryIds.includes(repository.id)) return false;
  if (
    scope.businessCriticalities.length > 0 &&
    !scope.businessCriticalities.includes(repository.business_criticality ?? '')
  ) {
    return false;
  }
  return (
    scope.lifecycleStatuses.length === 0 ||
    scope.lifecycleStatuses.includes(repository.lifecycle_status)
  );
}

/** The dependencies (in the policy's ecosystems) for which the condition holds. */
export function matchingDependencies(
  policy: Pick<PolicyRow, 'scope'>,
  holds: (facts: DependencyWithFacts['facts']) => boolean,
  dependencies: readonly DependencyWithFacts[],
): DependencyWithFacts[] {
  const ecosystems = policy.scope.ecosystems;
  return dependencies.filter(
    (dep) => (ecosystems.length === 0 || ecosystems.includes(dep.ecosystem)) && holds(dep.facts),
  );
}

export async function loadRepository(
  db: Kysely<DB>,
  repositoryId: string,
): Promise<RepositoryForFacts | undefined> {
  return db
    .selectFrom('repositories')
    .select(['id', 'name', 'business_criticality', 'lifecycle_status'])
    .where('id', '=', repositoryId)
    .executeTakeFirst();
}

interface ExistingViolation {
  id: string;
  policy_id: string;
  package_id: string;
  version: string;
  status: ViolationStatus;
  severity: string;
  action: string;
  policy_version: number;
  facts_digest: string | null;
}

// One digest per dependency's facts, shared by every policy that matches it.
const digests = new WeakMap<DependencyWithFacts['facts'], string>();

/** What a violation stores to tell whether its facts changed (SHA-1 of the facts as JSON). */
function factsDigest(facts: DependencyWithFacts['facts']): string {
  let digest = digests.get(facts);
  if (digest === undefined) {
    digest = createHash('sha1').update(JSON.stringify(facts)).digest('base64url');
    digests.set(facts, digest);
  }
  return digest;
}

const keyOf = (policyId: string, packageId: string, version: string) =>
  `${policyId}\u0000${packageId}\u0000${version}`;

interface Plan {
  inserts: Insertable<DB['policy_violations']>[];
  updates: SystemUpdate[];
  events: PolicyViolationOpened[];
  counts: EvaluationCounts;
}

/** What one policy's matches change: new violations, and moves of existing ones. */
function planMatches(
  plan: Plan,
  policy: PolicyRow,
  repositoryId: string,
  matches: DependencyWithFacts[],
  existing: Map<string, ExistingViolation>,
  exceptions: readonly CoveringException[],
): void {
  for (const dep of matches) {
    const current = existing.get(keyOf(policy.id, dep.packageId, dep.version));
    existing.delete(keyOf(policy.id, dep.packageId, dep.version));
    const cover = coveringException(exceptions, {
      policyId: policy.id,
      repositoryId,
      packageId: dep.packageId,
      violationId: current?.id ?? null,
    });
    const event = {
      policyId: policy.id,
      repositoryId,
      packageId: dep.packageId,
      severity: policy.severity,
      action: policy.action,
    };
    if (!current) {
      const id = newId();
      const status = initialStatus(cover !== undefined);
      plan.inserts.push({
        id,
        policy_id: policy.id,
        repository_id: repositoryId,
        package_id: dep.packageId,
        version: dep.version,
        ecosystem: dep.ecosystem,
        package_name: dep.packageName,
        purl: dep.packageUrl,
        severity: policy.severity,
        action: policy.action,
        status,
        exception_id: cover?.id ?? null,
        facts: JSON.stringify(dep.facts),
        facts_digest: factsDigest(dep.facts),
        policy_version: policy.version,
      });
      if (status === 'open') plan.events.push({ ...event, violationId: id });
      plan.counts[status === 'open' ? 'opened' : 'excepted']++;
      continue;
    }
    const next = systemMove(current.status, { kind: 'holds', covered: cover !== undefined });
    const exceptionId =
      next === 'excepted' ? (cover?.id ?? null) : next === 'open' ? null : undefined;
    const digest = factsDigest(dep.facts);
    const unchanged =
      next === null &&
      digest === current.facts_digest &&
      policy.severity === current.severity &&
      policy.action === current.action &&
      policy.version === current.policy_version;
    if (unchanged) {
      // Held as it is: nothing to write (a rescan that changes nothing writes nothing).
      plan.counts.held++;
      continue;
    }
    plan.updates.push({
      id: current.id,
      status: next ?? current.status,
      facts: dep.facts,
      factsDigest: digest,
      severity: policy.severity,
      action: policy.action,
      policyVersion: policy.version,
      exceptionId,
    });
    if (next === 'open') {
      plan.events.push({ ...event, violationId: current.id });
      plan.counts.reopened++;
    } else if (next === 'excepted') plan.counts.excepted++;
    else plan.counts.held++;
  }
}

export interface RepositoryEvaluation {
  tenantId: string;
  repositoryId: string;
  /** Only these policies (one created or changed); absent: all of the tenant's. */
  policyIds?: readonly string[];
  /**
   * Only the dependencies on these packages (what changed: their exposures, drift or health);
   * absent or null: every dependency. Violations of other packages are left as they are.
   */
  packageIds?: readonly string[] | null;
  correlationId?: string | null;
}

/**
 * Evaluates the tenant's policies (or only `policyIds`) over one repository's current
 * dependencies (or only those on `packageIds`). Violations of policies that no longer apply
 * (disabled, out of scope) resolve.
 */
export async function evaluateRepository(
  db: Kysely<DB>,
  input: RepositoryEvaluation,
  now = new Date(),
): Promise<EvaluationCounts> {
  const repository = await loadRepository(db, input.repositoryId);
  if (!repository) return { ...NONE };
  const wanted = input.policyIds;
  const packageIds = input.packageIds ?? null;
  if (packageIds !== null && packageIds.length === 0) return { ...NONE };
  const policies = (await allPolicies(db)).filter((p) => !wanted || wanted.includes(p.id));
  if (policies.length === 0) return { ...NONE };
  const applicable = policies.filter((policy) => appliesTo(policy, repository));
  const dependencies =
    applicable.length > 0 ? await repositoryFacts(db, repository, now, packageIds) : [];
  let existingQuery = db
    .selectFrom('policy_violations')
    .select([
      'id',
      'policy_id',
      'package_id',
      'version',
      'status',
      'severity',
      'action',
      'policy_version',
      'facts_digest',
    ])
    .where('repository_id', '=', repository.id)
    .where(
      'policy_id',
      'in',
      policies.map((p) => p.id),
    );
  if (packageIds !== null) existingQuery = existingQuery.where('package_id', 'in', [...packageIds]);
  const existingRows = await existingQuery.execute();
  const exceptions = await activeExceptions(
    db,
    applicable.map((p) => p.id),
    now,
  );
  const existing = new Map(
    existingRows.map((v) => [keyOf(v.policy_id, v.package_id, v.version), v]),
  );
  const plan: Plan = {
    inserts: [],
    updates: [],
    events: [],
    counts: { ...NONE, policies: applicable.length, dependencies: dependencies.length },
  };
  for (const policy of applicable) {
    const matches = matchingDependencies(policy, conditionOf(policy).holds, dependencies);
    planMatches(plan, policy, repository.id, matches, existing, exceptions);
  }
  // What is left no longer holds (or its policy no longer applies).
  for (const violation of existing.values()) {
    const next = systemMove(violation.status, { kind: 'cleared' });
    if (!next) continue;
    plan.updates.push({
      id: violation.id,
      status: next,
      facts: null,
      severity: null,
      action: null,
      policyVersion: null,
    });
    plan.counts.resolved++;
  }
  await writePlan(db, input, plan);
  return plan.counts;
}

async function writePlan(
  db: Kysely<DB>,
  input: { tenantId: string; correlationId?: string | null },
  plan: Plan,
): Promise<void> {
  for (let start = 0; start < plan.inserts.length; start += 500) {
    await db
      .insertInto('policy_violations')
      .values(plan.inserts.slice(start, start + 500))
      .execute();
  }
  await applySystemUpdates(db, plan.updates);
  await emitEvents(db, 'policy_violation.opened', {
    tenantId: input.tenantId,
    data: plan.events,
    correlationId: input.correlationId ?? null,
  });
}

function addCounts(totals: EvaluationCounts, counts: EvaluationCounts): void {
  for (const key of Object.keys(totals) as (keyof EvaluationCounts)[]) totals[key] += counts[key];
}

/**
 * Evaluates every policy over the dependencies on one package, in each repository of the tenant
 * that uses it (a fact of the package changed: its health).
 */
export async function evaluatePackageEverywhere(
  db: Kysely<DB>,
  input: { tenantId: string; packageId: string; correlationId?: string | null },
): Promise<EvaluationCounts> {
  const totals = { ...NONE };
  const repositories = await db
    .selectFrom('repository_dependencies')
    .select('repository_id')
    .distinct()
    .where('package_id', '=', input.packageId)
    .orderBy('repository_id')
    .execute();
  for (const { repository_id } of repositories) {
    addCounts(
      totals,
      await evaluateRepository(db, {
        ...input,
        repositoryId: repository_id,
        packageIds: [input.packageId],
      }),
    );
  }
  return totals;
}

/** Evaluates one policy over every repository of the tenant (after it was created or changed). */
export async function evaluatePolicyEverywhere(
  db: Kysely<DB>,
  input: { tenantId: string; policyId: string; correlationId?: string | null },
): Promise<EvaluationCounts> {
  const totals = { ...NONE };
  const repositories = await db.selectFrom('repositories').select('id').orderBy('id').execute();
  for (const { id } of repositories) {
    const counts = await evaluateRepository(db, {
      ...input,
      repositoryId: id,
      policyIds: [input.policyId],
    });
    addCounts(totals, counts);
  }
  return totals;
}
