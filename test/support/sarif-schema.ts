import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * A validator for the official SARIF 2.1.0 JSON schema (2.1.0-rtm.5), as the devDependency
 * @microsoft/jest-sarif ships it (docs/policies.md#ci-gate). The schema is draft-04; Ajv 8 has no
 * draft-04 mode (and ajv-draft-04 is not installed), so it is compiled as draft-07 after checking
 * that nothing in it means something else there: the draft-04 `$schema` and root `id` are
 * dropped, and every keyword at a schema position must be one whose draft-04 meaning draft-07
 * kept (no boolean `exclusiveMinimum`, no nested `id`). Nothing else is relaxed: strict mode on,
 * every format checked by ajv-formats (an unknown one would throw).
 */
export const SARIF_SCHEMA_PATH = createRequire(import.meta.url).resolve(
  '@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json',
);

const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';

/** Keywords that mean the same in draft-04 and draft-07. */
const SAME_IN_DRAFT_07 = new Set([
  '$ref',
  'additionalProperties',
  'allOf',
  'anyOf',
  'default',
  'definitions',
  'dependencies',
  'description',
  'enum',
  'format',
  'items',
  'maxItems',
  'maxLength',
  'maximum',
  'minItems',
  'minLength',
  'minimum',
  'multipleOf',
  'not',
  'oneOf',
  'pattern',
  'patternProperties',
  'properties',
  'required',
  'title',
  'type',
  'uniqueItems',
]);
const SCHEMA_MAPS = new Set(['properties', 'definitions', 'patternProperties']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);

/** The keywords at every schema position below `schema`, with where they are. */
function keywords(schema: unknown, at: string, out: Map<string, string>): Map<string, string> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return out;
  for (const [key, value] of Object.entries(schema)) {
    out.set(key, out.get(key) ?? `${at}/${key}`);
    const child = `${at}/${key}`;
    if (SCHEMA_MAPS.has(key) && value && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value)) keywords(sub, `${child}/${name}`, out);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      for (const [i, sub] of value.entries()) keywords(sub, `${child}/${i}`, out);
    } else if (key === 'items' || key === 'additionalProperties' || key === 'not') {
      for (const sub of Array.isArray(value) ? value : [value]) keywords(sub, child, out);
    }
  }
  return out;
}

/** The schema as draft-07, or an error naming what would change meaning. */
export function sarifSchemaAsDraft07(raw: Record<string, unknown>): Record<string, unknown> {
  const { $schema, id, ...schema } = raw;
  if ($schema !== DRAFT_04) throw new Error(`expected a draft-04 schema, got ${String($schema)}`);
  if (typeof id !== 'string') throw new Error('expected the draft-04 root id');
  const differing = [...keywords(schema, '#', new Map())].filter(
    ([key]) => !SAME_IN_DRAFT_07.has(key),
  );
  if (differing.length > 0) {
    throw new Error(
      `keywords whose draft-04 meaning is not checked: ${differing.map(([k, at]) => `${k} at ${at}`).join(', ')}`,
    );
  }
  return schema;
}

const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule;

export function sarifValidator(): ValidateFunction {
  const raw = JSON.parse(readFileSync(SARIF_SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    // Required names listed in anyOf branches of an object that declares them one level up: a
    // style strict mode flags, not a difference in what validates.
    strictRequired: false,
    // JSON Schema patterns are ECMA-262 regular expressions without the u flag; the schema's
    // language pattern (a stray "]") is valid only so.
    unicodeRegExp: false,
  });
  addFormats(ajv);
  return ajv.compile(sarifSchemaAsDraft07(raw));
}
