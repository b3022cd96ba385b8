import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config';
import { iso } from '../../core/iso-time';
import { type Feature, planHas } from '../../core/plans';
import { badRequest, FieldErrorCollector } from '../../core/problem';
import type { RouteApp } from '../../http/route-app';
import { NullableDateTime, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import { checkWeights, DEFAULT_WEIGHTS, SIGNAL_KEYS } from '../../intel/health/weights';
import { benchmarkFigures, INDUSTRIES, SIZE_BANDS } from './benchmark';
import {
  loadBenchmarkProfile,
  loadScoringWeights,
  saveBenchmarkProfile,
  saveScoringWeights,
} from './store';

/**
 * Tenant settings of package intelligence: health scoring weights and the benchmark profile
 * (docs/package-intelligence.md). Kept apart from the foundation's tenants routes.
 */

const weightProperties = Object.fromEntries(
  SIGNAL_KEYS.map((key) => [
    key,
    Type.Number({ minimum: 0, description: `Weight of ${key} (default ${DEFAULT_WEIGHTS[key]})` }),
  ]),
);

const ScoringWeights = Type.Object(weightProperties, {
  description: 'Health signal weights: non-negative numbers summing to 100',
});
const ScoringWeightsPatch = Type.Object(
  Object.fromEntries(Object.entries(weightProperties).map(([k, v]) => [k, Type.Optional(v)])),
  {
    additionalProperties: true,
    description:
      'The complete weights object (replaces the stored one); a signal left out weighs 0',
  },
);

const Aggregate = Type.Object({
  mean: Type.Union([Type.Number(), Type.Null()]),
  p25: Type.Union([Type.Number(), Type.Null()]),
  median: Type.Union([Type.Number(), Type.Null()]),
  p75: Type.Union([Type.Number(), Type.Null()]),
});
const Figures = Type.Object({
  libyearPerDependency: Type.Union([Type.Number(), Type.Null()]),
  outdatedShare: Type.Union([Type.Number(), Type.Null()]),
  meanHealthScore: Type.Union([Type.Number(), Type.Null()]),
});

const BenchmarkProfile = Type.Object({
  industry: Type.Union([Type.String(), Type.Null()]),
  sizeBand: Type.Union([Type.String(), Type.Null()]),
  optIn: Type.Boolean(),
  updatedAtUtc: NullableDateTime,
  benchmark: Type.Object({
    available: Type.Boolean(),
    reason: Type.Union([Type.String(), Type.Null()]),
    minimumPeerTenants: Type.Integer(),
    peerTenants: Type.Union([Type.Integer(), Type.Null()]),
    self: Type.Union([Figures, Type.Null()]),
    peers: Type.Union([
      Type.Object({
        libyearPerDependency: Aggregate,
        outdatedShare: Aggregate,
        meanHealthScore: Aggregate,
      }),
      Type.Null(),
    ]),
  }),
});

const BenchmarkProfilePatch = Type.Object(
  {
    industry: Type.Optional(
      Type.Union([Type.String({ description: `One of ${INDUSTRIES.join(', ')}` }), Type.Null()]),
    ),
    sizeBand: Type.Optional(
      Type.Union([Type.String({ description: `One of ${SIZE_BANDS.join(', ')}` }), Type.Null()]),
    ),
    optIn: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export function tenantSettingsRoutes(deps: { config: Config }): FastifyPluginAsyncTypebox {
  const minimum = deps.config.packageIntel.benchmarkMinimumTenants;

  return async (app) => {
    scoringWeightRoutes(app);
    benchmarkProfileRoutes(app, minimum);
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
      const check = checkWeights(request.body);
      if (!check.ok) throw badRequest('The scoring weights are invalid.', check.errors);
      const { tenantId } = principalOf(request);
      await saveScoringWeights(tenantDb(request), check.weights);
      request.auditResourceId = tenantId;
      request.auditDetails = { weights: check.weights };
      return check.weights;
    },
  );
}

/**
 * Peer figures are the `benchmarks` plan feature; the profile itself is a setting every plan
 * has, so the routes answer every plan (the contract lists no 403 for them) and declare the
 * feature as partial (docs/decisions/0009-benchmark-profile-partial-feature.md).
 */
const BENCHMARKS: Feature = 'benchmarks';

/** The tenant's benchmark profile, shown with peer figures only when `minimum` other tenants take part. */
function benchmarkProfileRoutes(app: RouteApp, minimum: number): void {
  const present = async (request: Parameters<typeof tenantDb>[0]) => {
    const db = tenantDb(request);
    const principal = principalOf(request);
    const profile = await loadBenchmarkProfile(db);
    const base = {
      industry: profile.industry,
      sizeBand: profile.sizeBand,
      optIn: profile.optIn,
      updatedAtUtc: iso(profile.updatedAt),
    };
    const unavailable = (reason: string, peerTenants: number | null = null) => ({
      ...base,
      benchmark: {
        available: false,
        reason,
        minimumPeerTenants: minimum,
        peerTenants,
        self: null,
        peers: null,
      },
    });
    if (!planHas(principal.plan, BENCHMARKS))
      return unavailable(`the ${principal.plan} plan does not include peer benchmarks`);
    if (!profile.optIn || !profile.industry || !profile.sizeBand) {
      return unavailable('opt in with an industry and a size band to compare with peers');
    }
    const figures = await benchmarkFigures(db);
    if (figures.peerTenants < minimum) {
      return unavailable(
        `fewer than ${minimum} other tenants take part in this peer group`,
        figures.peerTenants,
      );
    }
    return {
      ...base,
      benchmark: {
        available: true,
        reason: null,
        minimumPeerTenants: minimum,
        peerTenants: figures.peerTenants,
        self: figures.self,
        peers: figures.peers,
      },
    };
  };

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
    async (request) => present(request),
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
      // Never undefined: preValidation above makes a missing body an empty one.
      const body = request.body;
      const db = tenantDb(request);
      const current = await loadBenchmarkProfile(db);
      const errors = new FieldErrorCollector();
      if (
        body.industry !== undefined &&
        body.industry !== null &&
        !(INDUSTRIES as readonly string[]).includes(body.industry)
      ) {
        errors.add('industry', `must be one of ${INDUSTRIES.join(', ')}`);
      }
      if (
        body.sizeBand !== undefined &&
        body.sizeBand !== null &&
        !(SIZE_BANDS as readonly string[]).includes(body.sizeBand)
      ) {
        errors.add('sizeBand', `must be one of ${SIZE_BANDS.join(', ')}`);
      }
      errors.throwIfAny(400, 'The benchmark profile is invalid.');
      const next = {
        industry: body.industry !== undefined ? body.industry : current.industry,
        sizeBand: body.sizeBand !== undefined ? body.sizeBand : current.sizeBand,
        optIn: body.optIn ?? current.optIn,
      };
      if (next.optIn && (!next.industry || !next.sizeBand)) {
        throw badRequest('Opting in needs an industry and a size band.', {
          optIn: ['needs industry and sizeBand to be set'],
        });
      }
      const { tenantId } = principalOf(request);
      await saveBenchmarkProfile(db, next);
      request.auditResourceId = tenantId;
      request.auditDetails = next;
      return present(request);
    },
  );
}
