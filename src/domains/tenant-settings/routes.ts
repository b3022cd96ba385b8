import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config';
import type { RouteApp } from '../../http/route-app';
import { withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import {
  BenchmarkProfile,
  BenchmarkProfilePatch,
  QuestionSettings,
  ScoringWeights,
  ScoringWeightsPatch,
} from './schemas';
import {
  BENCHMARKS,
  benchmarkProfileView,
  changeBenchmarkProfile,
  replaceScoringWeights,
} from './service';
import { loadQuestionSettings, loadScoringWeights, saveQuestionSettings } from './store';

/**
 * Tenant settings of package intelligence: health scoring weights and the benchmark profile
 * (docs/package-intelligence.md). Kept apart from the foundation's tenants routes.
 */
export function tenantSettingsRoutes(deps: { config: Config }): FastifyPluginAsyncTypebox {
  const minimum = deps.config.packageIntel.benchmarkMinimumTenants;

  return async (app) => {
    scoringWeightRoutes(app);
    benchmarkProfileRoutes(app, minimum);
    questionSettingRoutes(app);
  };
}

/** The tenant's health scoring weights: read and replace. */
function scoringWeightRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/tenants/current/scoring-weights',
    {
      schema: {
        tags: ['Tenant'],
        summary: 'Health scoring weights of the tenant (defaults until changed)',
        response: withErrors({ 200: ScoringWeights }),
      },
    },
    async (request) => loadScoringWeights(tenantDb(request)),
  );

  app.patch(
    '/api/v1/tenants/current/scoring-weights',
    {
      schema: {
        tags: ['Tenant'],
        summary: 'Replace the health scoring weights (non-negative, summing to 100)',
        body: ScoringWeightsPatch,
        response: withErrors({ 200: ScoringWeights }, [413, 415]),
      },
      config: {
        role: 'admin',
        audit: { action: 'tenant.scoring_weights.update', resourceType: 'tenant_settings' },
      },
    },
    async (request) => {
      const weights = await replaceScoringWeights(tenantDb(request), request.body);
      request.auditResourceId = principalOf(request).tenantId;
      request.auditDetails = { weights };
      return weights;
    },
  );
}

/**
 * The benchmark profile answers every plan (the contract lists no 403 for it) and declares the
 * feature as partial: peer figures only where the plan has them.
 */
function benchmarkProfileRoutes(app: RouteApp, minimum: number): void {
  app.get(
    '/api/v1/tenants/current/benchmark-profile',
    {
      schema: {
        tags: ['Tenant'],
        summary: "The tenant's peer group and, when enough peers take part, its benchmark",
        response: withErrors({ 200: BenchmarkProfile }, [404]),
      },
      config: { partialFeature: BENCHMARKS },
    },
    async (request) => benchmarkProfileView(tenantDb(request), principalOf(request).plan, minimum),
  );

  app.patch(
    '/api/v1/tenants/current/benchmark-profile',
    {
      schema: {
        tags: ['Tenant'],
        summary: 'Set the peer group (industry, size band) and opt in or out of benchmarks',
        body: BenchmarkProfilePatch,
        response: withErrors({ 200: BenchmarkProfile }, [404, 413, 415]),
      },
      config: {
        role: 'admin',
        partialFeature: BENCHMARKS,
        audit: { action: 'tenant.benchmark_profile.update', resourceType: 'tenant_settings' },
      },
      // The body is optional: no body changes nothing.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request) => {
      const db = tenantDb(request);
      const principal = principalOf(request);
      request.auditDetails = await changeBenchmarkProfile(db, request.body);
      request.auditResourceId = principal.tenantId;
      return benchmarkProfileView(db, principal.plan, minimum);
    },
  );
}

/** Whether questions' audit entries keep their text (docs/questions.md#audit). */
function questionSettingRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/tenants/current/question-settings',
    {
      schema: {
        tags: ['Tenant'],
        summary: 'Settings of questions in plain language (defaults until changed)',
        response: withErrors({ 200: QuestionSettings }),
      },
    },
    async (request) => loadQuestionSettings(tenantDb(request)),
  );

  app.put(
    '/api/v1/tenants/current/question-settings',
    {
      schema: {
        tags: ['Tenant'],
        summary: "Replace the settings of questions (whether audit entries keep a question's text)",
        body: QuestionSettings,
        response: withErrors({ 200: QuestionSettings }, [413, 415]),
      },
      config: {
        role: 'admin',
        audit: { action: 'tenant.question_settings.update', resourceType: 'tenant_settings' },
      },
    },
    async (request) => {
      await saveQuestionSettings(tenantDb(request), request.body);
      request.auditResourceId = principalOf(request).tenantId;
      request.auditDetails = { ...request.body };
      return request.body;
    },
  );
}
