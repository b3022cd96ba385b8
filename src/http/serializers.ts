import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled on its route's first
 * response instead of at start: compiling all of them took most of the service's start-up CPU
 * (about 5 s on 2 cores, for ~200 routes of which a process often serves a few). The output is
 * the same serializer; only the moment it is built moves.
 */
export function lazySerializers(): SerializerFactory {
  const select = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = select(externalSchemas, options);
    return (route) => {
      let serialize: ((document: unknown) => string) | undefined;
      return (document) => {
        serialize ??= compile(route);
        return serialize(document);
      };
    };
  };
}
