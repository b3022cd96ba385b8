/**
 * Compile-time checks of the typed route helpers, run by `npm run typecheck` (tsc; never
 * executed). Each `@ts-expect-error` must meet an error: if the schema helpers stopped carrying
 * static types (request parts or replies back to `unknown`), the directive would be unused and
 * the type check fails.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { enumQuery } from '../../src/http/query';
import { NoContent, UuidParam, withErrors } from '../../src/http/schemas';

const Thing = Type.Object({ thingId: Type.String(), count: Type.Integer() });

export const typedRoutesProbe: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/things/:thingId',
    {
      schema: {
        params: UuidParam('thingId'),
        querystring: Type.Object({ kind: enumQuery(['a', 'b']) }),
        response: withErrors({ 200: Thing }, [404]),
      },
    },
    async (request) => {
      const id: string = request.params.thingId;
      const kind: string | undefined = request.query.kind;
      // @ts-expect-error only the declared path parameter exists
      request.params.otherId;
      return { thingId: id, count: kind === 'a' ? 1 : 2 };
    },
  );

  app.get(
    '/wrong-thing',
    { schema: { response: withErrors({ 200: Thing }) } },
    // @ts-expect-error the handler's result is checked against the 200 schema (count: number)
    async () => ({ thingId: 'x', count: 'three' }),
  );

  app.post(
    '/things',
    {
      schema: {
        body: Type.Object({ name: Type.String() }),
        response: withErrors({ 201: Thing, 204: NoContent }, [409]),
      },
    },
    async (request, reply) => {
      const name: string = request.body.name;
      // @ts-expect-error the body schema has no such field
      request.body.colour;
      if (name === 'none') return reply.code(204).send();
      if (name === 'taken') {
        return reply.code(409).send({
          type: null,
          title: 'Conflict',
          status: 409,
          detail: null,
          instance: null,
          correlationId: null,
        });
      }
      // @ts-expect-error 418 is not a declared status
      reply.code(418);
      // @ts-expect-error the 201 payload must be a Thing
      return reply.code(201).send({ thingId: name });
    },
  );

  app.get(
    '/public',
    { schema: { response: withErrors({ 200: Thing }, [], { authenticated: false }) } },
    async (_request, reply) => {
      // @ts-expect-error a public route declares no 401
      reply.code(401);
      return { thingId: 'x', count: 1 };
    },
  );
};
