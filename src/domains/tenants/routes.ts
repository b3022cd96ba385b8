import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { FEATURES, type Feature, isPlan, PLAN_DEFINITIONS, planHas } from '../../core/plans';
import { notFound } from '../../core/problem';
import { DateTime, Uuid, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import type { RouteDeps } from '../route-deps';
import { tenantLifecycleRoutes } from './lifecycle-routes';
import { createTenantWithOwner } from './service';

const DemoSession = Type.Object({
  tenantId: Uuid,
  tenantName: Type.String(),
  plan: Type.Literal('trial'),
  token: Type.String({ description: 'Bearer token (dw_...) for the demo tenant' }),
  expiresAtUtc: DateTime,
});

const CurrentTenant = Type.Object({
  tenantId: Uuid,
  name: Type.String(),
  plan: Type.Union([
    Type.Literal('trial'),
    Type.Literal('free'),
    Type.Literal('team'),
    Type.Literal('business'),
    Type.Literal('enterprise'),
  ]),
  createdAtUtc: DateTime,
});

const FeatureFlag = Type.Object({
  key: Type.String(),
  description: Type.String(),
  enabled: Type.Boolean(),
});

const FeatureFlags = Type.Object({
  plan: Type.String(),
  items: Type.Array(FeatureFlag),
  limits: Type.Object({
    repositories: Type.Integer(),
    tenantRequestsPerMinute: Type.Union([Type.Integer(), Type.Null()]),
    tokenRequestsPerMinute: Type.Union([Type.Integer(), Type.Null()]),
  }),
});

/** GET /api/v1/tenants/current: who the caller's tenant is (the web app's header). */
const currentTenantRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/tenants/current',
    {
      schema: {
        tags: ['Tenant'],
        summary: "The caller's tenant: id, name, plan, creation time",
        response: withErrors({ 200: CurrentTenant }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const { tenantId } = principalOf(request);
      // Row-level security already limits the scope to this one row; the filter says so.
      const row = await tenantDb(request)
        .selectFrom('tenants')
        .select(['id', 'name', 'plan', 'created_at'])
        .where('id', '=', tenantId)
        .executeTakeFirst();
      if (!row || !isPlan(row.plan)) throw notFound('The tenant');
      return {
        tenantId: row.id,
        name: row.name,
        plan: row.plan,
        createdAtUtc: row.created_at.toISOString(),
      };
    },
  );
};

/** The tenants domain: the tenant itself, demo tenants, and its lifecycle (usage, deletion, export). */
export function tenantRoutes(
  routeDeps: Pick<RouteDeps, 'config' | 'database' | 'routes' | 'tokenUsage'>,
): FastifyPluginAsyncTypebox {
  const deps = {
    database: routeDeps.database,
    demoTtlHours: routeDeps.config.demoTenantTtlHours,
    /** Features some registered route declares (`config.feature`), complete once the app is ready. */
    routeFeatures: routeDeps.routes.features,
  };
  return async (app) => {
    await app.register(tenantLifecycleRoutes(routeDeps));
    await app.register(currentTenantRoute);
    app.post(
      '/api/v1/auth/demo',
      {
        schema: {
          tags: ['Tenant'],
          operationId: 'createDemoTenant',
          summary: 'Create a demo tenant on the trial plan (expires after 24 hours)',
          response: withErrors({ 200: DemoSession }, [], { authenticated: false }),
        },
        config: { auth: false },
      },
      async () => {
        const expiresAt = new Date(Date.now() + deps.demoTtlHours * 3600 * 1000);
        const suffix = Math.random().toString(36).slice(2, 8);
        const tenant = await createTenantWithOwner(deps.database, {
          name: `Demo ${suffix}`,
          plan: 'trial',
          demo: true,
          expiresAt,
        });
        return {
          tenantId: tenant.tenantId,
          tenantName: tenant.name,
          plan: 'trial' as const,
          token: tenant.ownerToken,
          expiresAtUtc: expiresAt.toISOString(),
        };
      },
    );

    app.get(
      '/api/v1/feature-flags',
      {
        schema: {
          tags: ['Tenant'],
          summary: "The features and limits of the tenant's plan (unpaged)",
          description:
            'Lists only the features some route of this service uses; enabled when the plan includes it (docs/http-api.md#feature-flags).',
          response: withErrors({ 200: FeatureFlags }),
        },
      },
      async (request) => {
        const { plan } = principalOf(request);
        // Only features this build has routes for: a flag never names what cannot be called.
        const items = (Object.keys(FEATURES) as Feature[])
          .filter((key) => deps.routeFeatures.has(key))
          .map((key) => ({ key, description: FEATURES[key], enabled: planHas(plan, key) }));
        return { plan, items, limits: PLAN_DEFINITIONS[plan].limits };
      },
    );
  };
}
