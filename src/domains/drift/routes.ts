import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../core/problem';
import { pageOf } from '../../http/query';
import { UuidParam, withErrors } from '../../http/schemas';
import { tenantDb } from '../../http/scope';
import { DriftHistory, DriftHistoryQuery } from './schemas';
import { driftHistory, repositoryExists } from './store';

/**
 * GET /api/v1/repositories/{repositoryId}/drift-history: the repository's drift at each scan,
 * newest first, for plotting over time (its own plugin: the repositories routes belong to the
 * repositories domain).
 */
export function driftRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/v1/repositories/:repositoryId/drift-history',
      {
        schema: {
          tags: ['Repositories'],
          summary:
            'Drift (libyear, versions behind, deprecated/yanked/end-of-life) at each scan, newest first',
          params: UuidParam('repositoryId'),
          querystring: DriftHistoryQuery,
          response: withErrors({ 200: DriftHistory }, [404]),
        },
      },
      async (request) => {
        const { repositoryId } = request.params;
        const { take } = pageOf(request.query, { take: 50, max: 500 });
        const db = tenantDb(request);
        if (!(await repositoryExists(db, repositoryId))) throw notFound('The repository');
        const rows = await driftHistory(db, repositoryId, take);
        const items = rows.map((row) => ({
          scanId: row.scan_id,
          scannedAtUtc: row.scanned_at.toISOString(),
          computedAtUtc: row.computed_at.toISOString(),
          dependencyCount: row.dependency_count,
          measuredCount: row.measured_count,
          pendingCount: row.pending_count,
          outdatedCount: row.outdated_count,
          libyearTotal: row.libyear_total,
          libyearPerDependency:
            row.measured_count > 0
              ? Math.round((row.libyear_total / row.measured_count) * 1000) / 1000
              : null,
          majorBehind: row.major_behind,
          minorBehind: row.minor_behind,
          patchBehind: row.patch_behind,
          deprecatedCount: row.deprecated_count,
          yankedCount: row.yanked_count,
          endOfLifeCount: row.end_of_life_count,
        }));
        return { repositoryId, items, totalReturned: items.length, take };
      },
    );
  };
}
