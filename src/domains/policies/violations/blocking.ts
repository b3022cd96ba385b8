import type { Kysely } from 'kysely';
import { compositeKey } from '../../../core/composite-key';
import type { DB } from '../../../db/schema';
import { coveringException } from '../exceptions/coverage';
import { activeExceptions } from '../exceptions/store';
import type { ViolationStatus } from '../tables';

/**
 * The one answer to "is this blocked here" (docs/policies.md#ci-gate): a violation blocks when
 * its policy's action is `block` and its status is open or acknowledged. The violation list (what
 * `driftwatch gate` reads, as each violation's `blocking`) and the IDE verdicts both ask here, so
 * an exception or a dismissal that lets the gate pass lets the editor pass too.
 */

export const BLOCKING_STATUSES: readonly ViolationStatus[] = ['open', 'acknowledged'];

export function isBlocking(action: string, status: string): boolean {
  return action === 'block' && (BLOCKING_STATUSES as readonly string[]).includes(status);
}

/** A firing policy's dependency in one repository: the violation it is or would be. */
export interface StandingKey {
  policyId: string;
  packageId: string;
  /** The violation's version: the resolved version, "" when none. */
  version: string;
}

export interface Standing {
  /** The stored violation's status, or what a new one would get (open, or excepted). */
  status: ViolationStatus;
  violationId: string | null;
  exceptionId: string | null;
}

const standingKey = (key: StandingKey) => compositeKey(key.policyId, key.packageId, key.version);

/**
 * Where each (policy, package, version) stands in a repository, as the evaluation would leave
 * it: an unresolved violation keeps its status (dismissed, excepted, acknowledged...); otherwise
 * a violation would open, `excepted` at once when an active exception covers it (a
 * repository_package or tenant_package exception covers versions not yet seen; without a
 * repository only tenant_package ones apply). Two statements, whatever the number of keys.
 */
export async function standingsIn(
  db: Kysely<DB>,
  /** null: no repository, only tenant-wide exceptions apply. */
  repositoryId: string | null,
  keys: readonly StandingKey[],
  now: Date,
): Promise<Map<string, Standing>> {
  const out = new Map<string, Standing>();
  if (keys.length === 0) return out;
  const policyIds = [...new Set(keys.map((key) => key.policyId))];
  const packageIds = [...new Set(keys.map((key) => key.packageId))];
  const stored = repositoryId
    ? await db
        .selectFrom('policy_violations')
        .select(['id', 'policy_id', 'package_id', 'version', 'status', 'exception_id'])
        .where('repository_id', '=', repositoryId)
        .where('policy_id', 'in', policyIds)
        .where('package_id', 'in', packageIds)
        .where('status', '<>', 'resolved')
        .execute()
    : [];
  const violations = new Map(
    stored.map((row) => [
      standingKey({ policyId: row.policy_id, packageId: row.package_id, version: row.version }),
      row,
    ]),
  );
  const exceptions = await activeExceptions(db, policyIds, now);
  for (const key of keys) {
    const violation = violations.get(standingKey(key));
    if (violation) {
      out.set(standingKey(key), {
        status: violation.status,
        violationId: violation.id,
        exceptionId: violation.exception_id,
      });
      continue;
    }
    const covering = coveringException(exceptions, {
      ...key,
      repositoryId: repositoryId ?? '',
      violationId: null,
    });
    out.set(standingKey(key), {
      status: covering ? 'excepted' : 'open',
      violationId: null,
      exceptionId: covering?.id ?? null,
    });
  }
  return out;
}

export function standingOf(standings: Map<string, Standing>, key: StandingKey) {
  return standings.get(standingKey(key));
}
