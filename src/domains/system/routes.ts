import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { unavailable } from '../../core/problem';
import type { Database } from '../../db/connection';
import { withErrors } from '../../http/schemas';
import type { BuildInfo, CliVersionInfo } from './build-info';
import { type IndexDeps, indexRoutes } from './index-routes';
import { API_ONLY, readinessRoutes, type ServiceState } from './readiness';

const Health = Type.Object({ status: Type.Literal('ok'), database: Type.String() });
const Build = Type.Object({
  product: Type.String(),
  version: Type.String(),
  buildId: Type.String(),
  gitSha: Type.String(),
  commitDate: Type.String(),
  environment: Type.String(),
});
const CliVersion = Type.Object({ current: Type.String(), minimumSupported: Type.String() });

export function systemRoutes(
  deps: {
    database: Database;
    buildInfo: BuildInfo;
    cliVersion: CliVersionInfo;
    /** Absent: an app built alone (no workers, never stopping). */
    state?: ServiceState;
  } & Pick<IndexDeps, 'routes' | 'metrics' | 'operatorCheck'>,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    await app.register(
      indexRoutes({
        routes: deps.routes,
        product: deps.buildInfo.product,
        version: deps.buildInfo.version,
        metrics: deps.metrics,
        operatorCheck: deps.operatorCheck,
      }),
    );

    await app.register(readinessRoutes(deps.database, deps.state ?? API_ONLY));
    app.get(
      '/api/v1/health',
      {
        schema: {
          tags: ['System'],
          summary: 'Liveness: 200 when the database answers, 503 when it does not',
          response: withErrors({ 200: Health }, [503], { authenticated: false }),
        },
        config: { auth: false },
      },
      async () => {
        try {
          await sql`SELECT 1`.execute(deps.database.system);
        } catch {
          throw unavailable('The database does not answer.');
        }
        return { status: 'ok' as const, database: deps.database.engine };
      },
    );

    app.get(
      '/api/v1/version',
      {
        schema: {
          tags: ['System'],
          summary: 'The deployed build (not the contract version)',
          response: withErrors({ 200: Build }, [], { authenticated: false }),
        },
        config: { auth: false },
      },
      async () => deps.buildInfo,
    );

    app.get(
      '/api/v1/cli-version',
      {
        schema: {
          tags: ['System'],
          summary: "The CLI's current and minimum supported versions",
          response: withErrors({ 200: CliVersion }, [], { authenticated: false }),
        },
        config: { auth: false },
      },
      async () => deps.cliVersion,
    );
  };
}
