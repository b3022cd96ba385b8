import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { readVexDocument } from '../../src/domains/triage-rules/vex/documents';

type Json = Record<string, unknown>;

/**
 * The official OpenVEX JSON schema (openvex_json_schema.json of openvex/spec, draft 2020-12) is
 * not vendored: where `$OPENVEX_SCHEMA_PATH` or `../shared/schemas/openvex_json_schema.json`
 * holds a copy, exports are validated against it too.
 */
const OPENVEX_SCHEMA_PATH = resolve(
  process.env.OPENVEX_SCHEMA_PATH ?? '../shared/schemas/openvex_json_schema.json',
);
function officialOpenVexValidator(): ValidateFunction | null {
  if (!existsSync(OPENVEX_SCHEMA_PATH)) {
    console.info(`vex.test.ts: ${OPENVEX_SCHEMA_PATH} absent: no official schema check`);
    return null;
  }
  const addFormats =
    (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ??
    addFormatsModule;
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  return ajv.compile(JSON.parse(readFileSync(OPENVEX_SCHEMA_PATH, 'utf8')));
}
const officialOpenVex = officialOpenVexValidator();

/** The checks of the OpenVEX 0.2.0 specification and schema an export must pass. */
export function expectValidOpenVex(doc: Json): void {
  if (officialOpenVex) {
    const valid = officialOpenVex(doc);
    const errors = (officialOpenVex.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    expect(valid, errors.join('\n')).toBe(true);
  }
  expect(Object.keys(doc).sort()).toEqual(
    ['@context', '@id', 'author', 'role', 'statements', 'timestamp', 'tooling', 'version'].sort(),
  );
  expect(doc['@context']).toBe('https://openvex.dev/ns/v0.2.0');
  expect(doc['@id']).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
  expect(doc.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  // The schema's minItems 1 and uniqueItems, and products named by URIs (a purl, an address).
  const statements = doc.statements as Json[];
  expect(statements.length).toBeGreaterThan(0);
  const unique = (items: unknown[]) => new Set(items.map((i) => JSON.stringify(i))).size;
  expect(unique(statements)).toBe(statements.length);
  for (const statement of statements) {
    const products = (statement.products ?? []) as Json[];
    expect(unique(products)).toBe(products.length);
    for (const product of products) {
      const parts = (product.subcomponents ?? []) as Json[];
      expect(unique(parts)).toBe(parts.length);
      for (const id of [product, ...parts].map((p) => p['@id'])) {
        expect(id).toMatch(/^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/);
      }
    }
    if (statement.status === 'not_affected') {
      // The schema's oneOf: a justification or an impact statement, not both.
      expect('justification' in statement !== 'impact_statement' in statement).toBe(true);
    }
    if (statement.status === 'affected') expect(statement.action_statement).toBeTruthy();
  }
  // And the import's own schema (the published one, closed objects and all).
  expect(() => readVexDocument(doc)).not.toThrow();
}
