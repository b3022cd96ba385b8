import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import type { JobDefinition, JobEnvelope } from '../../jobs/queue';
import { insertAuditEntry } from '../audit-log/store';
import type { JobDeps } from '../job-deps';
import {
  evaluatePackageEverywhere,
  evaluatePolicyEverywhere,
  evaluateRepository,
} from './evaluation/evaluate';
import {
  EVALUATE_REPOSITORY_JOB,
  type EvaluateRepositoryJob,
  packageFilterOf,
} from './evaluation/requests';
import { markScanEvaluated } from './evaluation/scan-evaluated';
import { expireTenantExceptions } from './exceptions/service';
import { tenantsWithExpiredExceptions } from './exceptions/store';
import { emitViolationsChanged, violationsMoved } from './violations/events';

/**
 * Policy jobs (docs/policies.md#evaluation):
 * - `policies.evaluate-repository` (subscribed to `exposures.refreshed`, queued by
 *   `requestEvaluation` when an exposure's status or a drift snapshot changes): every policy over
 *   the repository's current dependencies, or only those on the `packageIds` the job names; after
 *   a scan's matching (`scanId`) it writes a `policies` line to that scan's log;
 * - `policies.evaluate-package` (subscribed to `package.health_changed`): every policy over the
 *   dependencies on that package, in each repository of the tenant that uses it;
 * - `policies.evaluate-policy` (queued when a policy is created or changed): that policy over
 *   every repository of the tenant;
 * - `policies.expire-exceptions` (every minute): exceptions past their expiry end, and what they
 *   covered reopens, each audited as the system's.
 */
export { EVALUATE_REPOSITORY_JOB };
export const EVALUATE_PACKAGE_JOB = 'policies.evaluate-package';
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
  return [
    evaluateRepositoryJob(deps) as JobDefinition<unknown>,
    evaluatePackageJob(deps) as JobDefinition<unknown>,
    evaluatePolicyJob(deps) as JobDefinition<unknown>,
    expireExceptionsJob(deps),
  ];
}

/** Evaluates one repository (after a scan: marks the scan evaluated and announces its results). */
function evaluateRepositoryJob(deps: JobDeps): JobDefinition<EvaluateRepositoryJob> {
  return {
    name: EVALUATE_REPOSITORY_JOB,
    expireInSeconds: 600,
    retryLimit: 5,
    handle: async (envelope) => {
      const tenantId = tenantOf(envelope);
      const { repositoryId } = envelope.data;
      if (typeof repositoryId !== 'string') return;
      const packageIds = packageFilterOf(envelope.data);
      const { scanId, requestId } = envelope.data;
      const counts = await withTenant(deps.database, tenantId, async (db) => {
        const scan = typeof scanId === 'string' ? scanId : undefined;
        const result = await evaluateRepository(db, {
          tenantId,
          repositoryId,
          packageIds,
          correlationId: envelope.correlationId,
          riskSettings: deps.config.packageIntel,
          scanId: scan,
          requestId: typeof requestId === 'string' ? requestId : undefined,
        });
        if (scan) {
          // After a scan's exposures were matched: the scan is evaluated (the CI gate waits for it).
          await markScanEvaluated(db, scan, result);
          // The scan's results are complete: announced even when no violation moved (a moved one
          // was announced by the evaluation, with the scan).
          if (!violationsMoved(result)) {
            await emitViolationsChanged(db, {
              tenantId,
              repositoryIds: [repositoryId],
              scanId: scan,
              correlationId: envelope.correlationId,
            });
          }
        }
        return result;
      });
      deps.log('policies evaluated', { tenantId, repositoryId, ...counts });
    },
  };
}

/** Evaluates one package in every repository that uses it. */
function evaluatePackageJob(deps: JobDeps): JobDefinition<{ packageId: string }> {
  return {
    name: EVALUATE_PACKAGE_JOB,
    expireInSeconds: 600,
    retryLimit: 5,
    handle: async (envelope) => {
      const tenantId = tenantOf(envelope);
      const { packageId } = envelope.data;
      if (typeof packageId !== 'string') return;
      const counts = await withTenant(deps.database, tenantId, (db) =>
        evaluatePackageEverywhere(db, {
          tenantId,
          packageId,
          correlationId: envelope.correlationId,
          riskSettings: deps.config.packageIntel,
        }),
      );
      deps.log('policies evaluated for a package', { tenantId, packageId, ...counts });
    },
  };
}

/** Evaluates one policy in every repository. */
function evaluatePolicyJob(deps: JobDeps): JobDefinition<EvaluatePolicyJob> {
  return {
    name: EVALUATE_POLICY_JOB,
    expireInSeconds: 1800,
    retryLimit: 5,
    handle: async (envelope) => {
      const tenantId = tenantOf(envelope);
      const { policyId } = envelope.data;
      if (typeof policyId !== 'string') return;
      const counts = await withTenant(deps.database, tenantId, (db) =>
        evaluatePolicyEverywhere(db, {
          tenantId,
          policyId,
          correlationId: envelope.correlationId,
          riskSettings: deps.config.packageIntel,
        }),
      );
      deps.log('policy evaluated everywhere', { tenantId, policyId, ...counts });
    },
  };
}

/** Every minute: expires exceptions past their date, each with an audit entry. */
function expireExceptionsJob(deps: JobDeps): JobDefinition<unknown> {
  return {
    name: EXPIRE_EXCEPTIONS_JOB,
    expireInSeconds: 300,
    retryLimit: 3,
    schedule: '* * * * *',
    handle: async () => {
      for (const tenantId of await tenantsWithExpiredExceptions(deps.database.system)) {
        const expired = await withTenant(deps.database, tenantId, (db) =>
          expireTenantExceptions(db, tenantId, (exception, reopened) =>
            insertAuditEntry(db, {
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
}
