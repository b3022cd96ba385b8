import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Query strings and path parameters arrive as text and are coerced to their declared types;
 * JSON bodies are validated as sent (coercion would turn `null` into `""` in nullable unions).
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const base = {
    allErrors: true,
    strict: false,
    useDefaults: true,
    removeAdditional: false,
  } as const;
  // ajv-formats is CommonJS: its function sits on `default` under Node's ESM interop.
  const addFormats =
    (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ??
    addFormatsModule;
  const coercing = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));
  const exact = addFormats(new Ajv({ ...base, coerceTypes: false }));
  return ({ schema, httpPart }) =>
    (httpPart === 'body' ? exact : coercing).compile(schema as object) as ReturnType<
      FastifySchemaCompiler<unknown>
    >;
}
