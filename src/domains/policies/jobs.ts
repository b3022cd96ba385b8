import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import type { JobDefinition, JobEnvelope } from '../../jobs/queue';
import { insertAuditEntry } from '../audit-log/store';
import type { JobDeps } from '../job-deps';
import { evaluatePolicyEverywhere, evaluateRepository } from './evaluation';
import { expireTenantExceptions } from './exception-service';
import { tenantsWithExpiredExceptions } from './exception-store';

/**
 * Policy jobs (docs/policies.md#evaluation):
 * - `policies.evaluate-repository` (subscribed to `dependencies.changed` and
 *   `exposures.refreshed`): every policy over the repository's current dependencies;
 * - `policies.evaluate-policy` (queued when a policy is created or changed): that policy over
 *   every repository of the tenant;
 * - `policies.expire-exceptions` (every minute): exceptions past their expiry end, and what they
 *   covered reopens, each audited as the system's.
 */
export const EVALUATE_REPOSITORY_JOB = 'policies.evaluate-repository';
export const EVALUATE_POLICY_JOB = 'policies.evaluate-policy';
export const EXPIRE_EXCEPTIONS_JOB = 'policies.expire-exceptions';

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
  const expireExceptionsJob: JobDefinition<unknown> = {
    name: EXPIRE_EXCEPTIONS_JOB,
    expireInSeconds: 300,
    retryLimit: 3,
    schedule: '* * * * *',
    handle: async () => {
      for (const tenantId of await tenantsWithExpiredExceptions(deps.database.system)) {
        const expired = await withTenant(deps.database, tenantId, (db) =>
          expireTenantExceptions(db, tenantId, (exception, reopened) =>
            insertAuditEntry(db, tenantId, {
              actorTokenId: null,
              action: 'policy_exception.expired',
              resourceType: 'policy_exception',
              resourceId: exception.id,
              outcome: 'success',
              statusCode: 200,
              ip: null,
              correlationId: newId(),
              details: {
                policyId: exception.policy_id,
                scope: exception.scope,
                packageId: exception.package_id,
                reason: exception.reason,
                expiresAtUtc: exception.expires_at.toISOString(),
                reopened,
              },
            }),
          ),
        );
        deps.log('policy exceptions expired', { tenantId, expired });
      }
    },
  };
  return [
    evaluateRepositoryJob as JobDefinition<unknown>,
    evaluatePolicyJob as JobDefinition<unknown>,
    expireExceptionsJob,
  ];
}
