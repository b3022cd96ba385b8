import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { unauthorized } from '../../core/problem';
import type { RouteTable } from '../../http/route-table';
import { withErrors } from '../../http/schemas';

/** The published paths the index pages link (docs/operations.md#the-front-pages). */
export const PATHS = {
  docs: '/docs',
  openapi: '/api/v1/openapi.json',
  api: '/api/v1',
  health: '/api/v1/health',
  ready: '/api/v1/ready',
  version: '/api/v1/version',
  status: '/status',
} as const;

/** `/api/v1/<name>` GET paths that are about the service, not resources of the API. */
const SERVICE_PATHS = new Set(['health', 'ready', 'version', 'cli-version']);

const Link = Type.Object({ name: Type.String(), href: Type.String() });
const ApiIndex = Type.Object({
  product: Type.String(),
  version: Type.String({ description: 'The deployed build' }),
  links: Type.Object({
    openapi: Type.String(),
    docs: Type.String(),
    health: Type.String(),
    ready: Type.String(),
    version: Type.String(),
  }),
  resources: Type.Array(Link, { description: "The API's top-level resources (GET paths)" }),
});

/** The top-level collections, from the routes actually registered. */
export function topLevelResources(routes: RouteTable): { name: string; href: string }[] {
  const seen = new Set<string>();
  const resources: { name: string; href: string }[] = [];
  for (const path of routes.getPaths) {
    const name = /^\/api\/v1\/([a-z][a-z-]*)$/.exec(path)?.[1];
    if (!name || SERVICE_PATHS.has(name) || seen.has(name)) continue;
    seen.add(name);
    resources.push({ name, href: path });
  }
  return resources;
}

export interface IndexDeps {
  routes: RouteTable;
  product: string;
  version: string;
  /** Serves GET /metrics on this port to the operator token when both are set. */
  metrics?: { contentType: string; render: () => Promise<string> } | null;
  operatorCheck?: ((authorization: string | undefined) => boolean) | null;
}

/**
 * `/api/v1` (JSON) and, for the operator, `/metrics`; public of tenant tokens. `/` is the web
 * app's (src/http/web-app.ts).
 */
export function indexRoutes(deps: IndexDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const apiIndex = async () => ({
      product: deps.product,
      version: deps.version,
      links: {
        openapi: PATHS.openapi,
        docs: PATHS.docs,
        health: PATHS.health,
        ready: PATHS.ready,
        version: PATHS.version,
      },
      resources: topLevelResources(deps.routes),
    });
    const response = withErrors({ 200: ApiIndex }, [], { authenticated: false });
    app.get(
      PATHS.api,
      {
        schema: {
          tags: ['System'],
          operationId: 'getApiIndex',
          summary: "Links to the API's resources, its OpenAPI document, health and readiness",
          response,
        },
        config: { auth: false },
      },
      apiIndex,
    );
    // The index with the trailing slash people type (`/api/v1/`) is the same index, not a 404.
    app.get(
      `${PATHS.api}/`,
      { schema: { hide: true, response }, config: { auth: false } },
      apiIndex,
    );

    const { metrics, operatorCheck } = deps;
    if (!metrics || !operatorCheck) return;
    app.get(
      '/metrics',
      { schema: { hide: true }, config: { auth: false } },
      async (request, reply) => {
        if (!operatorCheck(request.headers.authorization)) {
          throw unauthorized('The operator token is required.');
        }
        reply.type(metrics.contentType);
        return metrics.render();
      },
    );
  };
}
