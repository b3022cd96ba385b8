import { type Static, Type } from 'typebox';
import { newId } from '../../../db/ids';
import { defineJob } from '../../../jobs/contract';
import type { SqlExecutor } from '../../../jobs/queue';
import type { EventName } from '../../events';

/**
 * The facts of policies that change outside a scan (docs/policies.md#evaluation): their owners
 * announce each change as one of these events, in the transaction of the change, naming the
 * repository and the packages whose facts changed; policies subscribe to them
 * (src/background-jobs.ts) with `policies.evaluate-repository`, so each change queues one
 * evaluation of those dependencies. Policies are never called by the owners of their facts.
 */
export const POLICY_FACT_EVENTS = [
  'exposures.status_changed',
  'dependency_drift.changed',
  'quantum.inventory_changed',
] as const satisfies readonly EventName[];

const EvaluateRepositoryPayload = Type.Object({
  repositoryId: Type.String(),
  /** Only the dependencies on these packages; absent or null: every dependency. */
  packageIds: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  /** The scan whose matching led here (from `exposures.refreshed`): marked evaluated. */
  scanId: Type.Optional(Type.String()),
  /** The recorded request this job answers (progress.ts): the CI gate waits until it is done. */
  requestId: Type.Optional(Type.String()),
});

export type EvaluateRepositoryJob = Static<typeof EvaluateRepositoryPayload>;

export const EVALUATE_REPOSITORY = defineJob({
  name: 'policies.evaluate-repository',
  payload: EvaluateRepositoryPayload,
  expireInSeconds: 600,
  retryLimit: 5,
  atRelay: recordFactsRequest,
});

/** Why a repository is evaluated again, for people (the gate names what it waits for). */
export function factsChangedReason(packageIds: readonly string[] | null | undefined): string {
  return packageIds ? `facts of ${packageIds.length} package(s) changed` : 'facts changed';
}

/**
 * A fact event becomes an evaluation job: the request the CI gate waits for is written in the
 * relay's transaction (before it, the event's outbox row says the same: progress.ts). After a
 * scan's matching (`scanId`) the scan's own evaluated mark is what the gate waits for instead.
 * A repository deleted meanwhile gets no request (its job finds nothing to evaluate).
 */
async function recordFactsRequest(
  envelope: { tenantId: string | null; data: EvaluateRepositoryJob },
  db: SqlExecutor,
): Promise<EvaluateRepositoryJob> {
  const { data, tenantId } = envelope;
  if (data.scanId || data.requestId || !tenantId) return data;
  const requestId = newId();
  await db.executeSql(
    `INSERT INTO policy_evaluation_requests (tenant_id, id, repository_id, reason)
     SELECT $1::uuid, $2::uuid, $3::uuid, $4
     WHERE EXISTS (SELECT 1 FROM repositories WHERE tenant_id = $1::uuid AND id = $3::uuid)`,
    [tenantId, requestId, data.repositoryId, factsChangedReason(data.packageIds)],
  );
  return { ...data, requestId };
}
