import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * Validators for the official CycloneDX JSON schemas vendored in src/sbom/__fixtures__/schemas
 * (origin and licence in the README there). The schemas are draft-07 and reference
 * spdx.schema.json (licence ids) and jsf-0.82.schema.json (signatures) by their `$id`.
 */
const SCHEMA_DIR = join(import.meta.dirname, '..', '..', 'src', 'sbom', '__fixtures__', 'schemas');

const addFormats =
  (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;

let ajv: Ajv | null = null;

function load(name: string): object {
  return JSON.parse(readFileSync(join(SCHEMA_DIR, name), 'utf8')) as object;
}

function instance(): Ajv {
  if (ajv) return ajv;
  const created = new Ajv({
    strict: false,
    allErrors: true,
    // Formats the schemas use that ajv-formats lacks: checked for the characters they exclude.
    formats: {
      'iri-reference': /^[^\s<>"{}|\\^`]*$/u,
      'idn-email': /^[^\s@]+@[^\s@]+$/u,
    },
  });
  addFormats(created);
  created.addSchema(load('spdx.schema.json'));
  created.addSchema(load('jsf-0.82.schema.json'));
  for (const version of ['1.4', '1.5', '1.6'])
    created.addSchema(load(`bom-${version}.schema.json`));
  ajv = created;
  return created;
}

export function cycloneDxValidator(version: '1.4' | '1.5' | '1.6'): ValidateFunction {
  const validate = instance().getSchema(`http://cyclonedx.org/schema/bom-${version}.schema.json`);
  if (!validate) throw new Error(`CycloneDX ${version} schema not loaded`);
  return validate;
}

/** Errors of a validation, short enough for an assertion message. */
export function schemaErrors(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}
