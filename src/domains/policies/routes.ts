import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../core/problem';
import { pageOf } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { NoContent, UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import type { RiskSettings } from '../../intel/risk/indicators';
import type { RouteDeps } from '../route-deps';
import { testPolicy } from './evaluation/dry-run';
import { exceptionRoutes } from './exceptions/routes';
import {
  CreatePolicyRequest,
  Policy,
  PolicyListQuery,
  PolicyPage,
  PolicyTestResult,
  TestPolicyRequest,
  UpdatePolicyRequest,
} from './schemas';
import { changePolicy, createPolicy, removePolicy, summary } from './service';
import { findPolicy, listPolicies, type PolicyRow } from './store';
import { violationRoutes } from './violations/routes';

const TAG = 'Policies';

export function presentPolicy(row: PolicyRow) {
  return {
    policyId: row.id,
    name: row.name,
    description: row.description,
    condition: row.condition,
    severity: row.severity,
    action: row.action,
    enabled: row.enabled,
    scope: row.scope,
    version: row.version,
    createdAtUtc: row.created_at.toISOString(),
    updatedAtUtc: row.updated_at.toISOString(),
  };
}

/** Policies (docs/policies.md): reading needs viewer, changing admin; all need the plan feature. */
export function policyRoutes({ config }: Pick<RouteDeps, 'config'>): FastifyPluginAsyncTypebox {
  const riskSettings: RiskSettings = config.packageIntel;
  return async (app) => {
    policyCollectionRoutes(app);
    policyItemRoutes(app);
    policyDryRunRoute(app, riskSettings);
    // The policies domain's one plugin also serves its violations and exceptions.
    await app.register(violationRoutes());
    await app.register(exceptionRoutes(config.policies));
  };
}

function policyCollectionRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/policies',
    {
      schema: {
        tags: [TAG],
        summary: "List the tenant's policies (newest first)",
        querystring: PolicyListQuery,
        response: withErrors({ 200: PolicyPage }),
      },
      config: { role: 'viewer', feature: 'policies' },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { rows, total } = await listPolicies(tenantDb(request), page);
      return { items: rows.map(presentPolicy), totalEstimate: total, ...page };
    },
  );

  app.post(
    '/api/v1/policies',
    {
      schema: {
        tags: [TAG],
        summary: 'Create a policy (a CEL condition over the facts of each dependency)',
        body: CreatePolicyRequest,
        response: withErrors({ 201: Policy }, [413, 415, 422]),
      },
      config: {
        role: 'admin',
        feature: 'policies',
        audit: { action: 'policy.create', resourceType: 'policy' },
      },
    },
    async (request, reply) => {
      const row = await createPolicy(
        tenantDb(request),
        principalOf(request),
        request.body,
        request.id,
      );
      request.auditResourceId = row.id;
      request.auditDetails = summary(row);
      return reply.code(201).send(presentPolicy(row));
    },
  );
}

/** Reading, changing and deleting one policy. */
function policyItemRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/policies/:policyId',
    {
      schema: {
        tags: [TAG],
        summary: 'One policy',
        params: UuidParam('policyId'),
        response: withErrors({ 200: Policy }, [404]),
      },
      config: { role: 'viewer', feature: 'policies' },
    },
    async (request) => {
      const row = await findPolicy(tenantDb(request), request.params.policyId);
      if (!row) throw notFound('The policy');
      return presentPolicy(row);
    },
  );

  app.patch(
    '/api/v1/policies/:policyId',
    {
      schema: {
        tags: [TAG],
        summary: 'Change a policy (the fields given); it is evaluated again',
        params: UuidParam('policyId'),
        body: UpdatePolicyRequest,
        response: withErrors({ 200: Policy }, [404, 413, 415, 422]),
      },
      config: {
        role: 'admin',
        feature: 'policies',
        audit: { action: 'policy.update', resourceType: 'policy' },
      },
    },
    async (request) => {
      const details: Record<string, unknown> = {};
      request.auditDetails = details;
      const { after } = await changePolicy(
        tenantDb(request),
        principalOf(request),
        { policyId: request.params.policyId, body: request.body, correlationId: request.id },
        details,
      );
      return presentPolicy(after);
    },
  );

  app.delete(
    '/api/v1/policies/:policyId',
    {
      schema: {
        tags: [TAG],
        summary: 'Delete a policy with its violations and exceptions',
        params: UuidParam('policyId'),
        response: withErrors({ 204: NoContent }, [404]),
      },
      config: {
        role: 'admin',
        feature: 'policies',
        audit: { action: 'policy.delete', resourceType: 'policy' },
      },
    },
    async (request, reply) => {
      await removePolicy(tenantDb(request), request.params.policyId);
      return reply.code(204).send();
    },
  );
}

/** A policy's would-be violations, computed without writing. */
function policyDryRunRoute(app: RouteApp, riskSettings: RiskSettings): void {
  app.post(
    '/api/v1/policies/:policyId/test',
    {
      schema: {
        tags: [TAG],
        operationId: 'testPolicy',
        summary:
          'Dry run: the would-be violations of the policy (or a draft condition); writes nothing',
        params: UuidParam('policyId'),
        body: TestPolicyRequest,
        response: withErrors({ 200: PolicyTestResult }, [404, 413, 415, 422]),
      },
      config: { role: 'admin', feature: 'policies' },
      // The body is optional: absent means the stored condition over every repository.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) =>
      testPolicy(tenantDb(request), request.params.policyId, request.body, riskSettings),
  );
}
