import { type Kysely, sql } from 'kysely';
import { asObject } from '../../../core/json-values';
import type { DB } from '../../../db/schema';
import { eventsWaiting } from '../../../jobs/outbox';
import { factsChangedReason, POLICY_FACT_EVENTS } from './requests';

/**
 * What a repository's violations are up to date with (docs/policies.md#ci-gate, migration 0043):
 * each policy's version last evaluated over every dependency there, and the evaluations asked
 * for because a fact changed that have not run yet. Written in the evaluation's transaction, with
 * the violations, so whoever reads "current" reads the violations of that evaluation. A fact's
 * change is pending from its own commit: first as its event's outbox row (POLICY_FACT_EVENTS),
 * then, from the relay's commit that queues the evaluation, as a request row (requests.ts).
 */

/** The requests of a repository visible now (an evaluation of every dependency covers them). */
export async function openRequestIds(db: Kysely<DB>, repositoryId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('policy_evaluation_requests')
    .select('id')
    .where('repository_id', '=', repositoryId)
    .execute();
  return rows.map((row) => row.id);
}

export async function finishRequests(
  db: Kysely<DB>,
  ids: readonly (string | undefined)[],
): Promise<void> {
  const known = ids.filter((id): id is string => typeof id === 'string');
  if (known.length === 0) return;
  await db.deleteFrom('policy_evaluation_requests').where('id', 'in', known).execute();
}

/** The policies evaluated over every dependency of the repository, at these versions. */
export async function recordVersions(
  db: Kysely<DB>,
  repositoryId: string,
  policies: readonly { id: string; version: number }[],
): Promise<void> {
  if (policies.length === 0) return;
  const rows = policies.map((p) => ({ policy_id: p.id, version: p.version }));
  await sql`
    INSERT INTO policy_repository_versions (repository_id, policy_id, version)
    SELECT ${repositoryId}::uuid, x.policy_id, x.version
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(policy_id uuid, version integer)
    ON CONFLICT (tenant_id, repository_id, policy_id) DO UPDATE SET
      version = greatest(policy_repository_versions.version, excluded.version),
      evaluated_at = now()`.execute(db);
}

export interface EvaluationProgress {
  repositoryId: string;
  state: 'current' | 'pending';
  /** Policies whose current version is not evaluated here yet (created, changed, toggled). */
  pendingPolicies: {
    policyId: string;
    name: string;
    version: number;
    evaluatedVersion: number | null;
  }[];
  /** Evaluations asked for after a fact changed (an exposure's status, drift), not run yet. */
  pendingRequests: { requestId: string; reason: string; requestedAtUtc: string }[];
  /** The policies at their evaluated versions. */
  policies: number;
  /** When the latest evaluation that completed a policy version here committed; null: never. */
  lastEvaluatedAtUtc: string | null;
}

/** Where a repository's evaluations stand: two statements. */
export async function evaluationProgress(
  db: Kysely<DB>,
  repositoryId: string,
): Promise<EvaluationProgress> {
  const policies = await db
    .selectFrom('policies as p')
    .leftJoin('policy_repository_versions as v', (join) =>
      join.onRef('v.policy_id', '=', 'p.id').on('v.repository_id', '=', repositoryId),
    )
    .select(['p.id', 'p.name', 'p.version', 'v.version as evaluated', 'v.evaluated_at'])
    .orderBy('p.id')
    .execute();
  const requests = await pendingRequests(db, repositoryId);
  const pendingPolicies = policies
    .filter((p) => p.evaluated === null || p.evaluated < p.version)
    .map((p) => ({
      policyId: p.id,
      name: p.name,
      version: p.version,
      evaluatedVersion: p.evaluated,
    }));
  const times = policies.flatMap((p) => (p.evaluated_at ? [p.evaluated_at.getTime()] : []));
  return {
    repositoryId,
    state: pendingPolicies.length === 0 && requests.length === 0 ? 'current' : 'pending',
    pendingPolicies,
    pendingRequests: requests,
    policies: policies.length,
    lastEvaluatedAtUtc: times.length > 0 ? new Date(Math.max(...times)).toISOString() : null,
  };
}

/** Queued evaluations (request rows) and fact events not relayed yet, oldest first. */
async function pendingRequests(
  db: Kysely<DB>,
  repositoryId: string,
): Promise<EvaluationProgress['pendingRequests']> {
  const queued = await db
    .selectFrom('policy_evaluation_requests')
    .select(['id', 'reason', 'requested_at'])
    .where('repository_id', '=', repositoryId)
    .execute();
  const waiting = await eventsWaiting(db, POLICY_FACT_EVENTS, repositoryId);
  return [
    ...queued.map((r) => ({ requestId: r.id, reason: r.reason, at: r.requested_at })),
    ...waiting.map((e) => ({ requestId: e.id, reason: reasonOfEvent(e.data), at: e.createdAt })),
  ]
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .map(({ requestId, reason, at }) => ({ requestId, reason, requestedAtUtc: at.toISOString() }));
}

function reasonOfEvent(data: unknown): string {
  const packageIds = asObject(data)?.packageIds;
  return factsChangedReason(Array.isArray(packageIds) ? packageIds : null);
}
