import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config';
import { notFound } from '../../core/problem';
import { newId } from '../../db/ids';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { pageOf, parseEnum } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { NoContent, UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import {
  Evidence,
  HealthHistory,
  HealthHistoryQuery,
  PackageDetail,
  PackageHealth,
  PackageList,
  PackageListQuery,
  ReplacementCandidates,
  RiskIndicators,
  Summary,
  Usage,
  Watch,
  WatchBody,
  WatchedList,
} from './schemas';
import {
  packageDetail,
  packageEvidence,
  packageHealth,
  packageHealthHistory,
  packageReplacements,
  packageRiskIndicators,
  packageSummary,
  packageUsage,
  presentPackage,
} from './service';
import {
  findVisiblePackage,
  listPackages,
  listWatches,
  unwatchPackage,
  watchPackage,
} from './store';

const TAGS = ['Packages'];
const Params = UuidParam('packageId');

export function packageRoutes(deps: { config: Config }): FastifyPluginAsyncTypebox {
  const settings = deps.config.packageIntel;

  return async (app) => {
    packageListRoutes(app);
    packageDetailRoutes(app);
    packageReadOutRoutes(app, settings);
    packageWatchRoutes(app);
  };
}

/** The packages the tenant can see, and those it watches. */
function packageListRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/packages',
    {
      schema: {
        tags: TAGS,
        summary:
          'Catalogue packages visible to the tenant (known to their registry, or used or watched by the tenant), in (ecosystem, name) order',
        querystring: PackageListQuery,
        response: withErrors({ 200: PackageList }),
      },
      config: { reads: 'replica' },
    },
    async (request) => {
      const query = request.query;
      const page = pageOf(query);
      const ecosystem = parseEnum('ecosystem', query.ecosystem, ECOSYSTEMS);
      const rows = await listPackages(tenantDb(request), {
        ecosystem,
        search: query.search,
        ...page,
      });
      const items = rows.map(presentPackage);
      return { items, totalReturned: items.length, take: page.take, skip: page.skip };
    },
  );

  // Registered before /:packageId so that "watched" is not taken for an id.
  app.get(
    '/api/v1/packages/watched',
    {
      schema: {
        tags: TAGS,
        operationId: 'listWatchedPackages',
        summary: 'Packages the tenant watches, newest watch first',
        querystring: Type.Object({
          ...HealthHistoryQuery.properties,
          skip: PackageListQuery.properties.skip,
        }),
        response: withErrors({ 200: WatchedList }),
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await listWatches(tenantDb(request), page);
      const items = rows.map((row) => ({
        watchId: row.watch_id,
        packageId: row.id,
        ecosystem: row.ecosystem,
        name: row.name,
        purl: row.purl,
        latestStableVersion: row.latest_stable ?? null,
        deprecated: row.deprecated !== null && row.deprecated !== undefined,
        note: row.note,
        watchedAtUtc: row.created_at.toISOString(),
      }));
      return { items, totalReturned: items.length, take: page.take, skip: page.skip };
    },
  );
}

/** One package: its registry facts, health and health history. */
function packageDetailRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/packages/:packageId',
    {
      schema: {
        tags: TAGS,
        summary: 'A package with its registry facts',
        params: Params,
        response: withErrors({ 200: PackageDetail }, [404]),
      },
    },
    async (request) => packageDetail(tenantDb(request), request.params.packageId),
  );

  app.get(
    '/api/v1/packages/:packageId/health',
    {
      schema: {
        tags: TAGS,
        summary:
          "Health score (0–100, the tenant's weights) with each signal's value, source and time",
        params: Params,
        response: withErrors({ 200: PackageHealth }, [404]),
      },
    },
    async (request) => packageHealth(tenantDb(request), request.params.packageId),
  );

  app.get(
    '/api/v1/packages/:packageId/health/history',
    {
      schema: {
        tags: TAGS,
        summary: 'Daily health scores, newest first (take: most recent days)',
        params: Params,
        querystring: HealthHistoryQuery,
        response: withErrors({ 200: HealthHistory }, [404]),
      },
    },
    async (request) => {
      const { take } = pageOf(request.query, { take: 30, max: 366 });
      return packageHealthHistory(tenantDb(request), request.params.packageId, take);
    },
  );
}

/** The read-outs of one package computed from the catalogue, and its replacement candidates. */
function packageReadOutRoutes(app: RouteApp, settings: Config['packageIntel']): void {
  // Four read-outs of one package, alike but for their schema and loader.
  const readOuts = [
    {
      path: 'evidence',
      summary:
        'Everything observed about the package: registry facts, health signals, risk indicators',
      schema: Evidence,
      load: packageEvidence,
    },
    {
      path: 'summary',
      summary: 'Health, risk, drift and usage of the package for the tenant, in one object',
      schema: Summary,
      load: packageSummary,
    },
    {
      path: 'risk-indicators',
      summary: 'Supply-chain risk indicators with their evidence',
      schema: RiskIndicators,
      load: packageRiskIndicators,
    },
    {
      path: 'usage',
      summary: "The tenant's repositories that use the package, at which versions, with drift",
      schema: Usage,
      load: packageUsage,
    },
  ] as const;
  for (const readOut of readOuts) {
    app.get(
      `/api/v1/packages/:packageId/${readOut.path}`,
      {
        schema: {
          tags: TAGS,
          summary: readOut.summary,
          params: Params,
          response: withErrors({ 200: readOut.schema }, [404]),
        },
      },
      async (request) => readOut.load(tenantDb(request), request.params.packageId, settings),
    );
  }

  app.get(
    '/api/v1/packages/:packageId/replacement-candidates',
    {
      schema: {
        tags: TAGS,
        summary: 'Successors from the registry, the deprecation message and the curated mapping',
        params: Params,
        response: withErrors({ 200: ReplacementCandidates }, [404]),
      },
    },
    async (request) => packageReplacements(tenantDb(request), request.params.packageId),
  );
}

/** Watching a package, and no longer watching it. */
function packageWatchRoutes(app: RouteApp): void {
  app.post(
    '/api/v1/packages/:packageId/watch',
    {
      schema: {
        tags: TAGS,
        operationId: 'watchPackage',
        summary: 'Watch the package (201 when created, 200 when already watched)',
        params: Params,
        body: WatchBody,
        response: withErrors({ 200: Watch, 201: Watch }, [404, 413, 415]),
      },
      config: { role: 'member', audit: { action: 'package.watch', resourceType: 'package' } },
      // The body is optional: no body is an empty one.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request, reply) => {
      const { packageId } = request.params;
      const db = tenantDb(request);
      const pkg = await findVisiblePackage(db, packageId);
      if (!pkg) throw notFound('The package');
      const principal = principalOf(request);
      const { row, created } = await watchPackage(db, {
        packageId,
        id: newId(),
        note: request.body.note ?? null,
        tokenId: principal.tokenId,
      });
      request.auditDetails = { created };
      return reply.code(created ? 201 : 200).send({
        watchId: row.id,
        packageId,
        note: row.note,
        watchedAtUtc: row.created_at.toISOString(),
        created,
      });
    },
  );

  app.delete(
    '/api/v1/packages/:packageId/watch',
    {
      schema: {
        tags: TAGS,
        operationId: 'unwatchPackage',
        summary: 'Stop watching the package (204, also when it was not watched)',
        params: Params,
        response: withErrors({ 204: NoContent }),
      },
      config: { role: 'member', audit: { action: 'package.unwatch', resourceType: 'package' } },
    },
    async (request, reply) => {
      await unwatchPackage(tenantDb(request), request.params.packageId);
      return reply.code(204).send();
    },
  );
}
