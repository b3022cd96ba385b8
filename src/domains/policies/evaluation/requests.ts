import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { enqueueJob } from '../../../jobs/outbox';
import { recordRequest } from './progress';

/**
 * How other domains ask for policies to be re-evaluated after a fact changed
 * (docs/policies.md#evaluation): a `policies.evaluate-repository` job queued in the caller's
 * transaction, narrowed to the packages whose facts changed, so it commits with the change and
 * only those dependencies are evaluated again.
 */
export const EVALUATE_REPOSITORY_JOB = 'policies.evaluate-repository';

const MAX_LISTED_PACKAGES = 1000;

export interface EvaluateRepositoryJob {
  repositoryId: string;
  /** Only the dependencies on these packages; absent or null: every dependency. */
  packageIds?: string[] | null;
  /** The scan whose matching led here (from `exposures.refreshed`): marked evaluated. */
  scanId?: string;
  /** The recorded request this job answers (progress.ts): the CI gate waits until it is done. */
  requestId?: string;
}

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
  await enqueueJob<EvaluateRepositoryJob>(db, {
    tenantId: request.tenantId,
    name: EVALUATE_REPOSITORY_JOB,
    correlationId: request.correlationId ?? null,
    // Past a thousand packages the list costs more to carry than evaluating everything.
    data: {
      repositoryId: request.repositoryId,
      packageIds: packageIds.length > MAX_LISTED_PACKAGES ? null : packageIds,
      requestId,
    },
  });
}

/** The package filter of a job's data: a list of ids, or null (everything) when absent or malformed. */
export function packageFilterOf(data: { packageIds?: unknown }): string[] | null {
  const ids = data.packageIds;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) return null;
  return ids;
}
