import type { CoveringException } from './store';

/** One violation (existing or would-be) as an exception sees it. */
export interface CoverageTarget {
  policyId: string;
  repositoryId: string;
  packageId: string;
  violationId: string | null;
}

/**
 * The active exception that covers a violation, or undefined (docs/policies.md#exceptions):
 * `violation` covers the one it was granted on, `repository_package` the policy's violations of
 * that package in that repository, `tenant_package` those in every repository. The caller passes
 * only active, unexpired exceptions; the one expiring last wins.
 */
export function coveringException(
  exceptions: readonly CoveringException[],
  target: CoverageTarget,
): CoveringException | undefined {
  let best: CoveringException | undefined;
  for (const exception of exceptions) {
    if (exception.policy_id !== target.policyId) continue;
    if (exception.package_id !== target.packageId) continue;
    const covers =
      exception.scope === 'tenant_package' ||
      (exception.scope === 'repository_package' &&
        exception.repository_id === target.repositoryId) ||
      (exception.scope === 'violation' && exception.violation_id === target.violationId);
    if (covers && (!best || exception.expires_at > best.expires_at)) best = exception;
  }
  return best;
}
