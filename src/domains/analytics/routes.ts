import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { planHas } from '../../core/plans';
import { ECOSYSTEMS } from '../../ecosystems/names';
import { enumQuery, parseEnum, parseTimeWindow } from '../../http/query';
import { DateTime, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import { globalDashboard } from './dashboard';
import { GlobalDashboard, Trends } from './schemas';
import { TREND_INTERVALS, trends } from './trends';

const DEFAULT_WINDOW_DAYS = 30;

/** Dashboards and trends, served from the rollups (docs/workspace.md#dashboards-and-trends). */
export function analyticsRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/v1/dashboards/global',
      {
        schema: {
          tags: ['Analytics'],
          operationId: 'getGlobalDashboard',
          summary: "The tenant's headline numbers with their change over 7 and 30 days",
          response: withErrors({ 200: GlobalDashboard }),
        },
        config: { role: 'viewer', reads: 'replica' },
      },
      // The quantum part is the plan's feature: null for a plan without it, not a 403.
      async (request) =>
        globalDashboard(tenantDb(request), {
          quantum: planHas(principalOf(request).plan, 'quantum'),
        }),
    );

    app.get(
      '/api/v1/analytics/trends',
      {
        schema: {
          tags: ['Analytics'],
          operationId: 'getAnalyticsTrends',
          summary: 'Time series of exposures, fixes, drift, violations, dependencies and scans',
          querystring: Type.Object({
            fromUtc: Type.Optional(DateTime),
            toUtc: Type.Optional(DateTime),
            interval: enumQuery(TREND_INTERVALS),
            repositoryId: Type.Optional(Type.String({ format: 'uuid' })),
            ecosystem: enumQuery(ECOSYSTEMS),
          }),
          response: withErrors({ 200: Trends }, [404]),
        },
        config: { role: 'viewer', reads: 'replica' },
      },
      async (request) => {
        const query = request.query;
        const window = parseTimeWindow(query);
        const to = window.to ?? new Date();
        const from = window.from ?? new Date(to.getTime() - DEFAULT_WINDOW_DAYS * 86_400_000);
        const interval = parseEnum('interval', query.interval, TREND_INTERVALS) ?? 'day';
        const ecosystem = parseEnum('ecosystem', query.ecosystem, ECOSYSTEMS);
        // A lone fromUtc after now (the default end) is the same mistake as from after to.
        parseTimeWindow({ fromUtc: from.toISOString(), toUtc: to.toISOString() });
        return trends(tenantDb(request), {
          from,
          to,
          interval,
          repositoryId: query.repositoryId,
          ecosystem,
        });
      },
    );
  };
}
