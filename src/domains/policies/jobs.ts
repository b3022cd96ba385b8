import { Type } from 'typebox';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import { defineJob, jobDefinition } from '../../jobs/contract';
import type { JobDefinition, JobEnvelope } from '../../jobs/queue';
import { insertAuditEntry } from '../audit-log/store';
import type { JobDeps } from '../job-deps';
import {
  evaluatePackageEverywhere,
  evaluatePolicyEverywhere,
  evaluateRepository,
} from './evaluation/evaluate';
import { EVALUATE_REPOSITORY } from './evaluation/requests';
import { markScanEvaluated } from './evaluation/scan-evaluated';
import { expireTenantExceptions } from './exceptions/service';
import { tenantsWithExpiredExceptions } from './exceptions/store';
import { emitViolationsChanged, violationsMoved } from './violations/events';

/**
 * Policy jobs (docs/policies.md#evaluation):
 * - `policies.evaluate-repository` (subscribed to `exposures.refreshed` and to the fact events,
 *   POLICY_FACT_EVENTS: an exposure's status or a dependency's drift changed): every policy over
 *   the repository's current dependencies, or only those on the `packageIds` the job names; after
 *   a scan's matching (`scanId`) it writes a `policies` line to that scan's log;
 * - `policies.evaluate-package` (subscribed to `package.health_changed`): every policy over the
 *   dependencies on that package, in each repository of the tenant that uses it;
 * - `policies.evaluate-policy` (queued when a policy is created or changed): that policy over
 *   every repository of the tenant;
 * - `policies.expire-exceptions` (every minute): exceptions past their expiry end, and what they
 *   covered reopens, each audited as the system's.
 */
export { EVALUATE_REPOSITORY };
export const EVALUATE_PACKAGE = defineJob({
  name: 'policies.evaluate-package',
  // The `package.health_changed` payload; only the package is read.
  payload: Type.Object({ packageId: Type.String() }),
  expireInSeconds: 600,
  retryLimit: 5,
});
export const EVALUATE_POLICY = defineJob({
  name: 'policies.evaluate-policy',
  payload: Type.Object({ policyId: Type.String() }),
  expireInSeconds: 1800,
  retryLimit: 5,
});
export const EXPIRE_EXCEPTIONS = defineJob({
  name: 'policies.expire-exceptions',
  payload: Type.Object({}),
  expireInSeconds: 300,
  retryLimit: 3,
  schedule: '* * * * *',
});

function tenantOf(envelope: JobEnvelope<unknown>): string {
  if (!envelope.tenantId) throw new Error('this job needs a tenant');
  return envelope.tenantId;
}

export function policyJobs(deps: JobDeps): JobDefinition[] {
  return [
    evaluateRepositoryJob(deps),
    evaluatePackageJob(deps),
    evaluatePolicyJob(deps),
    expireExceptionsJob(deps),
  ];
}

/** Evaluates one repository (after a scan: marks the scan evaluated and announces its results). */
function evaluateRepositoryJob(deps: JobDeps): JobDefinition {
  return jobDefinition(EVALUATE_REPOSITORY, async (envelope) => {
    const tenantId = tenantOf(envelope);
    const { repositoryId, scanId, requestId } = envelope.data;
    const packageIds = envelope.data.packageIds ?? null;
    const counts = await withTenant(deps.database, tenantId, async (db) => {
      const result = await evaluateRepository(db, {
        tenantId,
        repositoryId,
        packageIds,
        correlationId: envelope.correlationId,
        riskSettings: deps.config.packageIntel,
        scanId,
        requestId,
      });
      if (scanId) {
        // After a scan's exposures were matched: the scan is evaluated (the CI gate waits for it).
        await markScanEvaluated(db, scanId, result);
        // The scan's results are complete: announced even when no violation moved (a moved one
        // was announced by the evaluation, with the scan).
        if (!violationsMoved(result)) {
          await emitViolationsChanged(db, {
            tenantId,
            repositoryIds: [repositoryId],
            scanId,
            correlationId: envelope.correlationId,
          });
        }
      }
      return result;
    });
    deps.log('policies evaluated', { tenantId, repositoryId, ...counts });
  });
}

/** Evaluates one package in every repository that uses it. */
function evaluatePackageJob(deps: JobDeps): JobDefinition {
  return jobDefinition(EVALUATE_PACKAGE, async (envelope) => {
    const tenantId = tenantOf(envelope);
    const { packageId } = envelope.data;
    const counts = await withTenant(deps.database, tenantId, (db) =>
      evaluatePackageEverywhere(db, {
        tenantId,
        packageId,
        correlationId: envelope.correlationId,
        riskSettings: deps.config.packageIntel,
      }),
    );
    deps.log('policies evaluated for a package', { tenantId, packageId, ...counts });
  });
}

/** Evaluates one policy in every repository. */
function evaluatePolicyJob(deps: JobDeps): JobDefinition {
  return jobDefinition(EVALUATE_POLICY, async (envelope) => {
    const tenantId = tenantOf(envelope);
    const { policyId } = envelope.data;
    const counts = await withTenant(deps.database, tenantId, (db) =>
      evaluatePolicyEverywhere(db, {
        tenantId,
        policyId,
        correlationId: envelope.correlationId,
        riskSettings: deps.config.packageIntel,
      }),
    );
    deps.log('policy evaluated everywhere', { tenantId, policyId, ...counts });
  });
}

/** Every minute: expires exceptions past their date, each with an audit entry. */
function expireExceptionsJob(deps: JobDeps): JobDefinition {
  return jobDefinition(EXPIRE_EXCEPTIONS, async () => {
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
  });
}
