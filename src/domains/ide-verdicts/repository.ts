import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { conditionOf } from '../policies/evaluation/cel';
import { subjectOf } from '../policies/evaluation/repository-subject';
import { REPOSITORY_SUBJECT } from '../policies/facts/quantum';
import { isRepositoryCondition } from '../policies/facts/reads';
import type { RepositoryForFacts } from '../policies/facts/store';
import type { PolicyRow } from '../policies/store';
import { isBlocking, standingOf, standingsIn } from '../policies/violations/blocking';

/**
 * The repository's own verdict (docs/policies.md#ide-verdicts): its repository conditions (those
 * on quantum facts) judged on its current facts, with where each violation stands, read from the
 * same standings the CI gate reads. A package's verdict never counts them: the repository's code,
 * not the package asked about, is what they are about.
 */

export type Verdict = 'allow' | 'warn' | 'block';

/**
 * A policy whose condition holds, with where its violation stands here: `excepted` or
 * `dismissed` when an exception or a person's triage covers it (policies/violations/blocking.ts, the same
 * answer the CI gate reads), so such a policy no longer blocks or warns.
 */
export interface FiringPolicy {
  policy: PolicyRow;
  status: string;
  violationId: string | null;
  exceptionId: string | null;
  blocking: boolean;
}

export interface RepositoryVerdict {
  verdict: Verdict;
  reasons: string[];
  firing: FiringPolicy[];
}

const standsOpen = (status: string) => status === 'open' || status === 'acknowledged';

export async function judgeRepository(
  db: Kysely<DB>,
  repository: RepositoryForFacts,
  policies: readonly PolicyRow[],
  now: Date,
): Promise<RepositoryVerdict> {
  const conditions = policies.filter((p) => isRepositoryCondition(conditionOf(p).reads));
  if (conditions.length === 0) return { verdict: 'allow', reasons: [], firing: [] };
  const subject = await subjectOf(db, repository, now);
  const holding = conditions.filter((p) => conditionOf(p).holds(subject.facts));
  const key = (policyId: string) => ({
    policyId,
    packageId: REPOSITORY_SUBJECT.packageId,
    version: REPOSITORY_SUBJECT.version,
  });
  const standings = await standingsIn(
    db,
    repository.id,
    holding.map((p) => key(p.id)),
    now,
  );
  const firing = holding.map((policy): FiringPolicy => {
    const standing = standingOf(standings, key(policy.id));
    const status = standing?.status ?? 'open';
    return {
      policy,
      status,
      violationId: standing?.violationId ?? null,
      exceptionId: standing?.exceptionId ?? null,
      blocking: isBlocking(policy.action, status),
    };
  });
  const reasons = firing.map(
    ({ policy: p, status }) =>
      `repository policy "${p.name}" (${p.action}, ${p.severity}${standsOpen(status) ? '' : `, ${status} here`})`,
  );
  if (firing.some((f) => f.blocking)) return { verdict: 'block', reasons, firing };
  const warns = firing.some((f) => f.policy.action === 'warn' && standsOpen(f.status));
  return { verdict: warns ? 'warn' : 'allow', reasons, firing };
}
