import { Ajv, type ValidateFunction } from 'ajv';
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
  // One bounded copy per declared schema: Ajv caches compiled schemas by object (and refuses a
  // second schema with the same $id), so the same declaration must map to the same copy.
  const copies = new WeakMap<object, object>();
  const boundedOnce = (schema: unknown): object => {
    if (typeof schema !== 'object' || schema === null) return withNumericBounds(schema);
    const known = copies.get(schema);
    if (known) return known;
    const copy = withNumericBounds(schema);
    copies.set(schema, copy);
    return copy;
  };
  // Each validator is compiled on its route's first request, not at start, as the serializers
  // are (./serializers.ts): compiling all of them at start held about 8 MB of heap and CPU for
  // ~200 routes of which a process often serves a few. Fastify reads a failed validation's
  // errors from the function it was given, so they are copied onto it. Every route's validators
  // are compiled by the fuzz suite (test/api/fuzz.test.ts), which sends every operation.
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? exact : coercing;
    let validate: ValidateFunction | undefined;
    const lazy = (data: unknown) => {
      validate ??= ajv.compile(boundedOnce(schema));
      const valid = validate(data);
      lazy.errors = validate.errors;
      return valid;
    };
    lazy.errors = null as ValidateFunction['errors'];
    return lazy as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}

/** Integers without declared bounds are int32, as the contract types them (docs/http-rules.md). */
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

function hasType(node: Record<string, unknown>, name: string): boolean {
  const type = node.type;
  return type === name || (Array.isArray(type) && type.includes(name));
}

/**
 * A copy of `schema` in which every integer without a bound gets the int32 one and every number
 * without a bound gets a finite one: `skip=99999999999999999999999`, `1e400` and `Infinity` are
 * field errors instead of values no column can hold. The route's own schema (and so the OpenAPI
 * document) is left as declared.
 */
export function withNumericBounds(schema: unknown): object {
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = copy(value);
    const integer = hasType(out, 'integer');
    if (integer || hasType(out, 'number')) {
      const limit = integer ? INT32_MAX : Number.MAX_VALUE;
      if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = limit;
      if (out.minimum === undefined && out.exclusiveMinimum === undefined) {
        out.minimum = integer ? INT32_MIN : -Number.MAX_VALUE;
      }
    }
    return out;
  };
  const bounded = copy(schema);
  return typeof bounded === 'object' && bounded !== null ? bounded : {};
}
