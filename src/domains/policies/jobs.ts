import { withTenant } from '../../db/tenant-scope';
import type { JobDefinition, JobEnvelope } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { evaluatePolicyEverywhere, evaluateRepository } from './evaluation';

/**
 * Policy jobs (docs/policies.md#evaluation):
 * - `policies.evaluate-repository` (subscribed to `dependencies.changed` and
 *   `exposures.refreshed`): every policy over the repository's current dependencies;
 * - `policies.evaluate-policy` (queued when a policy is created or changed): that policy over
 *   every repository of the tenant.
 */
export const EVALUATE_REPOSITORY_JOB = 'policies.evaluate-repository';
export const EVALUATE_POLICY_JOB = 'policies.evaluate-policy';

export interface EvaluatePolicyJob {
  policyId: string;
}

function tenantOf(envelope: JobEnvelope<unknown>): string {
  if (!envelope.tenantId) throw new Error('this job needs a tenant');
  return envelope.tenantId;
}

export function policyJobs(deps: JobDeps): JobDefinition<unknown>[] {
  const evaluateRepositoryJob: JobDefinition<{ repositoryId: string }> = {
    name: EVALUATE_REPOSITORY_JOB,
    expireInSeconds: 600,
    retryLimit: 5,
    handle: async (envelope) => {
      const tenantId = tenantOf(envelope);
      const { repositoryId } = envelope.data;
      if (typeof repositoryId !== 'string') return;
      const counts = await withTenant(deps.database, tenantId, (db) =>
        evaluateRepository(db, { tenantId, repositoryId, correlationId: envelope.correlationId }),
      );
      deps.log('policies evaluated', { tenantId, repositoryId, ...counts });
    },
  };
  const evaluatePolicyJob: JobDefinition<EvaluatePolicyJob> = {
    name: EVALUATE_POLICY_JOB,
    expireInSeconds: 1800,
    retryLimit: 5,
    handle: async (envelope) => {
      const tenantId = tenantOf(envelope);
      const { policyId } = envelope.data;
      if (typeof policyId !== 'string') return;
      const counts = await withTenant(deps.database, tenantId, (db) =>
        evaluatePolicyEverywhere(db, { tenantId, policyId, correlationId: envelope.correlationId }),
      );
      deps.log('policy evaluated everywhere', { tenantId, policyId, ...counts });
    },
  };
  return [
    evaluateRepositoryJob as JobDefinition<unknown>,
    evaluatePolicyJob as JobDefinition<unknown>,
  ];
}
