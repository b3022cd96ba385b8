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

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c,
  );

function frontPage(product: string, version: string, links: [string, string][]): string {
  const items = links
    .map(([href, text]) => `    <li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${escapeHtml(product)}</title>
</head>
<body>
  <h1>${escapeHtml(product)} ${escapeHtml(version)}</h1>
  <p>A multi-tenant API for dependency drift and supply-chain intelligence.</p>
  <ul>
${items}
  </ul>
</body>
</html>
`;
}

export interface IndexDeps {
  routes: RouteTable;
  product: string;
  version: string;
  /** Serves GET /metrics on this port to the operator token when both are set. */
  metrics?: { contentType: string; render: () => Promise<string> } | null;
  operatorCheck?: ((authorization: string | undefined) => boolean) | null;
}

/** `/` (HTML), `/api/v1` (JSON) and, for the operator, `/metrics`; all public of tenant tokens. */
export function indexRoutes(deps: IndexDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/', { schema: { hide: true }, config: { auth: false } }, async (_request, reply) => {
      const links: [string, string][] = [
        [PATHS.docs, 'API reference'],
        [PATHS.openapi, 'OpenAPI document'],
        [PATHS.api, 'API index (JSON)'],
      ];
      // Only a page that exists is linked: the route table decides, not this list.
      if (app.hasRoute({ method: 'GET', url: PATHS.status })) links.push([PATHS.status, 'Status']);
      reply.type('text/html; charset=utf-8');
      return frontPage(deps.product, deps.version, links);
    });

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
