import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../../config';
import { iso } from '../../../core/iso-time';
import { pageOf, parseEnum } from '../../../http/query';
import type { RouteApp } from '../../../http/route-app';
import { NoContent, UuidParam, withErrors } from '../../../http/schemas';
import { principalOf, tenantDb } from '../../../http/scope';
import {
  ExceptionListQuery,
  GrantExceptionRequest,
  PolicyException,
  PolicyExceptionPage,
} from '../schemas';
import { grantException, removeException } from './service';
import { type ExceptionRow, listExceptions } from './store';

const TAG = 'Policies';

export function presentException(row: ExceptionRow) {
  return {
    exceptionId: row.id,
    policyId: row.policy_id,
    violationId: row.violation_id,
    scope: row.scope,
    repositoryId: row.repository_id,
    packageId: row.package_id,
    version: row.version === '' ? null : row.version,
    reason: row.reason,
    expiresAtUtc: row.expires_at.toISOString(),
    status: row.status,
    createdAtUtc: row.created_at.toISOString(),
    createdByTokenId: row.created_by_token_id,
    expiredAtUtc: iso(row.expired_at),
  };
}

/** Policy exceptions (docs/policies.md#exceptions): granting and deleting need admin. */
export function exceptionRoutes(settings: Config['policies']): FastifyPluginAsyncTypebox {
  return async (app) => {
    grantExceptionRoute(app, settings);
    exceptionListRoute(app);
    deleteExceptionRoute(app);
  };
}

/** Granting an exception to a violation, for at most `exceptionMaxDays`. */
function grantExceptionRoute(app: RouteApp, settings: Config['policies']): void {
  app.post(
    '/api/v1/policy-violations/:violationId/exception',
    {
      schema: {
        tags: [TAG],
        operationId: 'grantPolicyViolationException',
        summary:
          'Grant an exception: reason, required expiry, scope (this violation, this package here, or everywhere)',
        params: UuidParam('violationId'),
        body: GrantExceptionRequest,
        response: withErrors({ 201: PolicyException }, [404, 413, 415, 422]),
      },
      config: {
        role: 'admin',
        feature: 'policies',
        audit: { action: 'policy_exception.grant', resourceType: 'policy_exception' },
      },
    },
    async (request, reply) => {
      const details: Record<string, unknown> = {};
      request.auditDetails = details;
      const row = await grantException(
        tenantDb(request),
        principalOf(request),
        {
          violationId: request.params.violationId,
          body: request.body,
          maxDays: settings.exceptionMaxDays,
        },
        details,
      );
      request.auditResourceId = row.id;
      return reply.code(201).send(presentException(row));
    },
  );
}

function exceptionListRoute(app: RouteApp): void {
  app.get(
    '/api/v1/policy-exceptions',
    {
      schema: {
        tags: [TAG],
        summary: 'List policy exceptions (newest first), active and expired',
        querystring: ExceptionListQuery,
        response: withErrors({ 200: PolicyExceptionPage }),
      },
      config: { role: 'viewer', feature: 'policies' },
    },
    async (request) => {
      const query = request.query;
      const page = pageOf(query);
      const filter = {
        policyId: query.policyId,
        packageId: query.packageId,
        status: parseEnum('status', query.status, ['active', 'expired'] as const),
      };
      const { rows, total } = await listExceptions(tenantDb(request), filter, page);
      return { items: rows.map(presentException), totalEstimate: total, ...page };
    },
  );
}

/** Deleting an exception reopens what it covered. */
function deleteExceptionRoute(app: RouteApp): void {
  app.delete(
    '/api/v1/policy-exceptions/:exceptionId',
    {
      schema: {
        tags: [TAG],
        summary: 'Delete an exception: what it covered reopens',
        params: UuidParam('exceptionId'),
        response: withErrors({ 204: NoContent }, [404]),
      },
      config: {
        role: 'admin',
        feature: 'policies',
        audit: { action: 'policy_exception.delete', resourceType: 'policy_exception' },
      },
    },
    async (request, reply) => {
      const details: Record<string, unknown> = {};
      request.auditDetails = details;
      await removeException(
        tenantDb(request),
        principalOf(request),
        { exceptionId: request.params.exceptionId, correlationId: request.id },
        details,
      );
      return reply.code(204).send();
    },
  );
}
