import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../../db/schema';
import { defineJob, type PayloadOf } from '../../../jobs/contract';
import { enqueue } from '../../../jobs/outbox';
import { recordRequest } from './progress';

/**
 * How other domains ask for policies to be re-evaluated after a fact changed
 * (docs/policies.md#evaluation): a `policies.evaluate-repository` job queued in the caller's
 * transaction, narrowed to the packages whose facts changed, so it commits with the change and
 * only those dependencies are evaluated again.
 */
export const EVALUATE_REPOSITORY = defineJob({
  name: 'policies.evaluate-repository',
  payload: Type.Object({
    repositoryId: Type.String(),
    /** Only the dependencies on these packages; absent or null: every dependency. */
    packageIds: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
    /** The scan whose matching led here (from `exposures.refreshed`): marked evaluated. */
    scanId: Type.Optional(Type.String()),
    /** The recorded request this job answers (progress.ts): the CI gate waits until it is done. */
    requestId: Type.Optional(Type.String()),
  }),
  expireInSeconds: 600,
  retryLimit: 5,
});

const MAX_LISTED_PACKAGES = 1000;

export type EvaluateRepositoryJob = PayloadOf<typeof EVALUATE_REPOSITORY>;

export async function requestEvaluation(
  db: Kysely<DB>,
  request: {
    tenantId: string;
    repositoryId: string;
    packageIds: readonly string[];
    correlationId?: string | null;
    /** For people (the gate names what it waits for). */
    reason?: string;
  },
): Promise<void> {
  const packageIds = [...new Set(request.packageIds)];
  if (packageIds.length === 0) return;
  const requestId = await recordRequest(
    db,
    request.repositoryId,
    request.reason ?? `facts of ${packageIds.length} package(s) changed`,
  );
  await enqueue(db, EVALUATE_REPOSITORY, {
    tenantId: request.tenantId,
    correlationId: request.correlationId ?? null,
    // Past a thousand packages the list costs more to carry than evaluating everything.
    data: {
      repositoryId: request.repositoryId,
      packageIds: packageIds.length > MAX_LISTED_PACKAGES ? null : packageIds,
      requestId,
    },
  });
}
