import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/**
 * The app a typed route plugin receives: a plugin with many routes registers them in named
 * groups, each a function taking this app, so its schemas and handlers keep their static types.
 */
export type RouteApp = Parameters<FastifyPluginAsyncTypebox>[0];
