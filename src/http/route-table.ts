import type { FastifyInstance } from 'fastify';
import type { Feature } from '../core/plans';

/**
 * What the registered routes say about the service, collected as they are registered (Fastify's
 * onRoute hook), so answers computed from it never drift from the code: the plan features some
 * route needs (docs/http-api.md#feature-flags) and the GET paths (the API index).
 */
export interface RouteTable {
  /** Features at least one registered route declares (`config.feature` or `partialFeature`). */
  features: ReadonlySet<Feature>;
  /** Paths of every GET route, in registration order. */
  getPaths: readonly string[];
}

/** Call on the root instance before any route is registered. */
export function trackRoutes(app: FastifyInstance): RouteTable {
  const features = new Set<Feature>();
  const getPaths: string[] = [];
  app.addHook('onRoute', (route) => {
    for (const feature of [route.config?.feature, route.config?.partialFeature]) {
      if (feature) features.add(feature);
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) getPaths.push(route.url);
  });
  return { features, getPaths };
}
