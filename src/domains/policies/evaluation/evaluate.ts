import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { compositeKey } from '../../../core/composite-key';
import { newId } from '../../../db/ids';
import type { DB } from '../../../db/schema';
import type { RiskSettings } from '../../../intel/risk/indicators';
import { emitEvents, type PolicyViolationOpened } from '../../events';
import { coveringException } from '../exceptions/coverage';
import { activeExceptions, type CoveringException } from '../exceptions/store';
import type { DependencyFacts } from '../facts/definition';
import { type FactReads, isRepositoryCondition, projectedJson, projectFacts } from '../facts/reads';
import { type DependencyWithFacts, type RepositoryForFacts, repositoryFacts } from '../facts/store';
import { allPolicies, type PolicyRow } from '../store';
import type { ViolationStatus } from '../tables';
import { emitViolationsChanged, violationsMoved } from '../violations/events';
import { initialStatus, systemMove } from '../violations/state-machine';
import {
  applySystemUpdates,
  insertViolations,
  type NewViolation,
  type SystemUpdate,
} from '../violations/store';
import { conditionOf } from './cel';
import { finishRequests, openRequestIds, recordVersions } from './progress';
import { repositorySubject } from './repository-subject';
import {
  loadEvaluationState,
  lockRepositoryEvaluation,
  saveEvaluationState,
  stateDigest,
  stateKey,
} from './state';

/**
 * Evaluates policies over one repository and brings its violations in line
 * (docs/policies.md#evaluation): opens, reopens, excepts and resolves them with a few set-based
 * statements, and emits `policy_violation.opened` in the same transaction.
 */

export interface EvaluationCounts {
  policies: number;
  /** Dependencies whose facts were computed. */
  dependencies: number;
  /** Those evaluated by every applicable policy: the ones whose facts changed (or all). */
  evaluated: number;
  opened: number;
  reopened: number;
  excepted: number;
  resolved: number;
  held: number;
}

const NONE: EvaluationCounts = {
  policies: 0,
  dependencies: 0,
  evaluated: 0,
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

/** What a violation stores to tell whether its facts changed (SHA-1 of the facts as JSON). */
function factsDigest(facts: DependencyFacts, reads: FactReads): string {
  return createHash('sha1').update(projectedJson(facts, reads)).digest('base64url');
}

const keyOf = (policyId: string, packageId: string, version: string) =>
  compositeKey(policyId, packageId, version);

interface Plan {
  inserts: NewViolation[];
  updates: SystemUpdate[];
  events: PolicyViolationOpened[];
  counts: EvaluationCounts;
}

/** The violation of a dependency that newly holds: open, or excepted when covered. */
function planInsert(
  plan: Plan,
  policy: PolicyRow,
  repositoryId: string,
  dep: DependencyWithFacts,
  cover: CoveringException | undefined,
): void {
  const id = newId();
  const status = initialStatus(cover !== undefined);
  const facts = projectFacts(dep.facts, conditionOf(policy).reads);
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
    facts,
    facts_digest: factsDigest(dep.facts, conditionOf(policy).reads),
    policy_version: policy.version,
  });
  if (status === 'open') plan.events.push(eventOf(policy, repositoryId, dep, id));
  plan.counts[status === 'open' ? 'opened' : 'excepted']++;
}

function eventOf(
  policy: PolicyRow,
  repositoryId: string,
  dep: DependencyWithFacts,
  violationId: string,
): PolicyViolationOpened {
  return {
    policyId: policy.id,
    violationId,
    repositoryId,
    packageId: dep.packageId,
    severity: policy.severity,
    action: policy.action,
  };
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
  const reads = conditionOf(policy).reads;
  for (const dep of matches) {
    const key = keyOf(policy.id, dep.packageId, dep.version);
    const current = existing.get(key);
    existing.delete(key);
    const cover = coveringException(exceptions, {
      policyId: policy.id,
      repositoryId,
      packageId: dep.packageId,
      violationId: current?.id ?? null,
    });
    if (!current) {
      planInsert(plan, policy, repositoryId, dep, cover);
      continue;
    }
    const next = systemMove(current.status, { kind: 'holds', covered: cover !== undefined });
    const exceptionId =
      next === 'excepted' ? (cover?.id ?? null) : next === 'open' ? null : undefined;
    const digest = factsDigest(dep.facts, reads);
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
      facts: projectFacts(dep.facts, reads),
      factsDigest: digest,
      severity: policy.severity,
      action: policy.action,
      policyVersion: policy.version,
      exceptionId,
    });
    if (next === 'open') {
      plan.events.push(eventOf(policy, repositoryId, dep, current.id));
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
  /** The risk thresholds of the configuration (`Config['packageIntel']`); absent: the defaults. */
  riskSettings?: RiskSettings;
  /** The scan whose matching led here: named by the `policy_violations.changed` it emits. */
  scanId?: string;
  /** The recorded request this evaluation answers (progress.ts): done when it commits. */
  requestId?: string;
}

/**
 * Which dependencies an evaluation by every policy looks at: those whose facts changed since
 * the stored state (new ones included), and the keys of those that are gone.
 */
interface Changes {
  /** State keys of the current dependencies whose facts changed (all on a first evaluation). */
  changed: Set<string>;
  /** State keys of dependencies the state knew and that are gone. */
  removed: string[];
  /** The state's patch. */
  digests: Record<string, string>;
}

function changesSince(
  state: Map<string, string> | null,
  dependencies: readonly DependencyWithFacts[],
  packageIds: readonly string[] | null,
): Changes {
  const changes: Changes = { changed: new Set(), removed: [], digests: {} };
  const current = new Set<string>();
  for (const dep of dependencies) {
    const key = stateKey(dep.packageId, dep.version);
    current.add(key);
    const digest = stateDigest(dep);
    if (state?.get(key) === digest) continue;
    changes.changed.add(key);
    changes.digests[key] = digest;
  }
  const inScope = packageIds === null ? null : new Set(packageIds);
  for (const key of state?.keys() ?? []) {
    if (current.has(key)) continue;
    if (inScope === null || inScope.has(key.slice(0, key.indexOf(' ')))) changes.removed.push(key);
  }
  return changes;
}

/** The stored violations an evaluation may change (all of them without `changes`). */
async function existingViolations(
  db: Kysely<DB>,
  scope: {
    repositoryId: string;
    policyIds: readonly string[];
    packageIds: readonly string[] | null;
    changes: Changes | null;
    everywhere: readonly string[];
  },
): Promise<ExistingViolation[]> {
  const { changes, everywhere } = scope;
  let query = db
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
    .where('repository_id', '=', scope.repositoryId)
    .where('policy_id', 'in', [...scope.policyIds]);
  if (scope.packageIds !== null) query = query.where('package_id', 'in', [...scope.packageIds]);
  if (changes) {
    const touched = [...changes.changed, ...changes.removed].map((k) => k.slice(0, k.indexOf(' ')));
    // Unresolved ones all come: one whose dependency is gone resolves even if the state never
    // knew it (opened by a policy's own evaluation between two scans).
    query = query.where((eb) =>
      eb.or([
        eb('status', '<>', 'resolved'),
        ...(touched.length > 0 ? [eb('package_id', 'in', [...new Set(touched)])] : []),
        ...(everywhere.length > 0 ? [eb('policy_id', 'in', [...everywhere])] : []),
      ]),
    );
  }
  return query.execute();
}

/**
 * Evaluates the tenant's policies (or only `policyIds`) over one repository's current
 * dependencies (or only those on `packageIds`). Evaluated by every policy, only the dependencies
 * whose facts changed since the last such evaluation are looked at (the state, migration 0030);
 * conditions that read the release's age look at every dependency. Violations of policies that
 * no longer apply (disabled, out of scope) and of dependencies that are gone resolve.
 */
export async function evaluateRepository(
  db: Kysely<DB>,
  input: RepositoryEvaluation,
  now = new Date(),
): Promise<EvaluationCounts> {
  const packageIds = input.packageIds ?? null;
  if (packageIds !== null && packageIds.length === 0) {
    await finishRequests(db, [input.requestId]);
    return { ...NONE };
  }
  // Before reading the policies and the repository: an evaluation that waited for another reads
  // what that one committed (a policy's new version, say), not what was there before it waited.
  await lockRepositoryEvaluation(db, input.repositoryId);
  // An evaluation of every dependency by every policy covers the requests visible before it
  // reads any fact (docs/policies.md#ci-gate); read now, so a later one is not taken as done.
  const covered =
    packageIds === null && !input.policyIds ? await openRequestIds(db, input.repositoryId) : [];
  const { counts, complete } = await evaluateLocked(db, input, now);
  await finishRequests(db, [...covered, input.requestId]);
  await recordVersions(db, input.repositoryId, complete);
  return counts;
}

/** evaluateRepository under the repository's lock; `complete`: the policies now fully evaluated. */
async function evaluateLocked(
  db: Kysely<DB>,
  input: RepositoryEvaluation,
  now: Date,
): Promise<{ counts: EvaluationCounts; complete: PolicyRow[] }> {
  const wanted = input.policyIds;
  const packageIds = input.packageIds ?? null;
  const repository = await loadRepository(db, input.repositoryId);
  if (!repository) return { counts: { ...NONE }, complete: [] };
  const policies = (await allPolicies(db)).filter((p) => !wanted || wanted.includes(p.id));
  if (policies.length === 0) return { counts: { ...NONE }, complete: [] };
  const applicable = policies.filter((policy) => appliesTo(policy, repository));
  const dependencies =
    applicable.length > 0
      ? await repositoryFacts(db, repository, now, packageIds, input.riskSettings)
      : [];
  // Only an evaluation by every policy compares with, and records, what every policy saw.
  const changes =
    !wanted && applicable.length > 0
      ? changesSince(await loadEvaluationState(db, repository.id), dependencies, packageIds)
      : null;
  const everywhere = evaluatedEverywhere(policies, applicable);
  const existing = considered(
    await existingViolations(db, {
      repositoryId: repository.id,
      policyIds: policies.map((p) => p.id),
      packageIds,
      changes,
      everywhere,
    }),
    dependencies,
    changes,
    new Set(everywhere),
  );
  const exceptions = await activeExceptions(
    db,
    applicable.map((p) => p.id),
    now,
  );
  const changed = changes
    ? dependencies.filter((dep) => changes.changed.has(stateKey(dep.packageId, dep.version)))
    : dependencies;
  const plan: Plan = {
    inserts: [],
    updates: [],
    events: [],
    counts: {
      ...NONE,
      policies: applicable.length,
      dependencies: dependencies.length,
      evaluated: changed.length,
    },
  };
  const subject = await repositorySubject(db, repository, applicable, packageIds, now);
  for (const policy of applicable) {
    const matches = matchesOf(policy, { subject, dependencies, changed });
    planMatches(plan, policy, repository.id, matches, existing, exceptions);
  }
  planResolutions(plan, existing);
  await writePlan(db, input, plan);
  if (changes) {
    await saveEvaluationState(db, repository.id, {
      changed: changes.digests,
      removed: changes.removed,
    });
  }
  // A policy's version is evaluated here once every dependency was (a policy's own evaluation, a
  // first or complete one), or it reads the release's age (evaluated over all each time), or it
  // does not apply here (its violations resolved); never by one narrowed to some packages.
  const everyDependency = changed.length === dependencies.length;
  const complete =
    packageIds === null ? policies.filter((p) => everyDependency || everywhere.includes(p.id)) : [];
  return { counts: plan.counts, complete };
}

/**
 * Policies whose violations an evaluation decides on whatever changed: those that no longer
 * apply (they resolve), those reading the release's age, and repository conditions.
 */
function evaluatedEverywhere(policies: readonly PolicyRow[], applicable: readonly PolicyRow[]) {
  return policies
    .filter((p) => {
      const { reads } = conditionOf(p);
      return !applicable.includes(p) || reads.timeDependent || isRepositoryCondition(reads);
    })
    .map((p) => p.id);
}

/** What one policy's condition holds for: the repository (a repository condition), or dependencies. */
function matchesOf(
  policy: PolicyRow,
  facts: {
    subject: DependencyWithFacts | undefined;
    dependencies: DependencyWithFacts[];
    changed: DependencyWithFacts[];
  },
): DependencyWithFacts[] {
  const { holds, reads } = conditionOf(policy);
  if (isRepositoryCondition(reads)) {
    // No subject when narrowed to some packages (their exposures or drift changed).
    return facts.subject && holds(facts.subject.facts) ? [facts.subject] : [];
  }
  const candidates = reads.timeDependent ? facts.dependencies : facts.changed;
  return matchingDependencies(policy, holds, candidates);
}

/**
 * The violations this evaluation decides on, by key: all of them without `changes`; else those
 * of changed or gone dependencies, and those of policies evaluated everywhere. The others are
 * left untouched.
 */
function considered(
  rows: readonly ExistingViolation[],
  dependencies: readonly DependencyWithFacts[],
  changes: Changes | null,
  everywhere: ReadonlySet<string>,
): Map<string, ExistingViolation> {
  const out = new Map<string, ExistingViolation>();
  const current = changes
    ? new Set(dependencies.map((dep) => stateKey(dep.packageId, dep.version)))
    : null;
  for (const row of rows) {
    const key = stateKey(row.package_id, row.version);
    const decide =
      changes === null ||
      changes.changed.has(key) ||
      everywhere.has(row.policy_id) ||
      !current?.has(key);
    if (decide) out.set(keyOf(row.policy_id, row.package_id, row.version), row);
  }
  return out;
}

/** What is left no longer holds (or its policy no longer applies, or its dependency is gone). */
function planResolutions(plan: Plan, left: Map<string, ExistingViolation>): void {
  for (const violation of left.values()) {
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
}

async function writePlan(db: Kysely<DB>, input: RepositoryEvaluation, plan: Plan): Promise<void> {
  await insertViolations(db, plan.inserts);
  await applySystemUpdates(db, plan.updates);
  await emitEvents(db, 'policy_violation.opened', {
    tenantId: input.tenantId,
    data: plan.events,
    correlationId: input.correlationId ?? null,
  });
  if (violationsMoved(plan.counts)) {
    await emitViolationsChanged(db, {
      tenantId: input.tenantId,
      repositoryIds: [input.repositoryId],
      scanId: input.scanId,
      correlationId: input.correlationId,
    });
  }
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
  input: Pick<RepositoryEvaluation, 'tenantId' | 'correlationId' | 'riskSettings'> & {
    packageId: string;
  },
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
  input: Pick<RepositoryEvaluation, 'tenantId' | 'correlationId' | 'riskSettings'> & {
    policyId: string;
  },
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
