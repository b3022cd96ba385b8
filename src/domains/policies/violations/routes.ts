import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { iso } from '../../../core/iso-time';
import { notFound } from '../../../core/problem';
import { pageOf, parseEnum } from '../../../http/query';
import type { RouteApp } from '../../../http/route-app';
import { UuidParam, withErrors } from '../../../http/schemas';
import { principalOf, tenantDb } from '../../../http/scope';
import { evaluationProgress } from '../evaluation/progress';
import {
  PolicyEvaluationProgress,
  PolicyViolation,
  PolicyViolationPage,
  ViolationListQuery,
  ViolationTransitionRequest,
} from '../schemas';
import { knownRepositoryIds } from '../store';
import { POLICY_SEVERITIES, VIOLATION_STATUSES } from '../tables';
import { isBlocking } from './blocking';
import { triageViolation } from './service';
import { findViolation, listViolations, type ViolationRow } from './store';

const TAG = 'Policies';

export function presentViolation(row: ViolationRow) {
  return {
    violationId: row.id,
    policyId: row.policy_id,
    policyName: row.policy_name,
    severity: row.severity,
    action: row.action,
    status: row.status,
    blocking: isBlocking(row.action, row.status),
    detectedAtUtc: row.detected_at.toISOString(),
    repositoryId: row.repository_id,
    packageId: row.package_id,
    purl: row.purl,
    ecosystem: row.ecosystem,
    packageName: row.package_name,
    version: row.version === '' ? null : row.version,
    file: row.file,
    line: row.line,
    reason: row.status_reason,
    exceptionId: row.exception_id,
    statusChangedAtUtc: iso(row.status_changed_at),
    statusChangedByTokenId: row.status_changed_by_token_id,
    resolvedAtUtc: iso(row.resolved_at),
    lastEvaluatedAtUtc: row.last_evaluated_at.toISOString(),
    reopenedCount: row.reopened_count,
    facts: row.facts,
  };
}

/** Policy violations (docs/policies.md#violation-states). */
export function violationRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    evaluationProgressRoute(app);
    app.get(
      '/api/v1/policy-violations',
      {
        schema: {
          tags: [TAG],
          summary: 'List policy violations (newest first) with the facts that made them',
          querystring: ViolationListQuery,
          response: withErrors({ 200: PolicyViolationPage }),
        },
        config: { role: 'viewer', feature: 'policies', reads: 'replica' },
      },
      async (request) => {
        const query = request.query;
        const page = pageOf(query);
        const filter = {
          policyId: query.policyId,
          repositoryId: query.repositoryId,
          packageId: query.packageId,
          severity: parseEnum('severity', query.severity, POLICY_SEVERITIES),
          status: parseEnum('status', query.status, VIOLATION_STATUSES),
        };
        const { rows, total } = await listViolations(tenantDb(request), filter, page);
        return { items: rows.map(presentViolation), totalEstimate: total, ...page };
      },
    );

    app.get(
      '/api/v1/policy-violations/:violationId',
      {
        schema: {
          tags: [TAG],
          summary: 'One policy violation',
          params: UuidParam('violationId'),
          response: withErrors({ 200: PolicyViolation }, [404]),
        },
        config: { role: 'viewer', feature: 'policies' },
      },
      async (request) => {
        const row = await findViolation(tenantDb(request), request.params.violationId);
        if (!row) throw notFound('The policy violation');
        return presentViolation(row);
      },
    );

    app.patch(
      '/api/v1/policy-violations/:violationId',
      {
        schema: {
          tags: [TAG],
          summary: 'Triage a violation: open, acknowledged, dismissed (reason required)',
          params: UuidParam('violationId'),
          body: ViolationTransitionRequest,
          response: withErrors({ 200: PolicyViolation }, [404, 413, 415, 422]),
        },
        config: {
          role: 'member',
          feature: 'policies',
          audit: { action: 'policy_violation.triage', resourceType: 'policy_violation' },
        },
      },
      async (request) => {
        const details: Record<string, unknown> = {};
        request.auditDetails = details;
        const row = await triageViolation(
          tenantDb(request),
          principalOf(request),
          { violationId: request.params.violationId, ...request.body },
          details,
        );
        return presentViolation(row);
      },
    );
  };
}

/** Whether a repository's violations are up to date (docs/policies.md#ci-gate: the gate waits). */
function evaluationProgressRoute(app: RouteApp): void {
  app.get(
    '/api/v1/repositories/:repositoryId/policy-evaluation',
    {
      schema: {
        tags: [TAG],
        summary:
          "Whether the repository's policy violations are current: the policy versions and evaluations still pending",
        params: UuidParam('repositoryId'),
        response: withErrors({ 200: PolicyEvaluationProgress }, [404]),
      },
      config: { role: 'viewer', feature: 'policies' },
    },
    async (request) => {
      const db = tenantDb(request);
      const { repositoryId } = request.params;
      if (!(await knownRepositoryIds(db, [repositoryId])).has(repositoryId)) {
        throw notFound('The repository');
      }
      return evaluationProgress(db, repositoryId);
    },
  );
}
