import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { type Static, Type } from 'typebox';
import { badRequest, type FieldErrors } from '../../../core/problem';
import { fieldErrorsFrom } from '../../../http/validation-errors';
import { VEX_JUSTIFICATIONS } from '../../exposures/state-machine';

/**
 * The VEX documents the import reads (docs/triage.md#vex), as JSON schemas: OpenVEX 0.2.0 as its
 * published schema says (closed objects), and of CycloneDX 1.5 / 1.6 the parts a VEX reads
 * (`components`, `vulnerabilities[].analysis`, `affects`), with the specification's
 * vocabularies; other CycloneDX fields pass. Bounded throughout: the document is hostile.
 */
export const MAX_VEX_STATEMENTS = 5000;
const MAX_PRODUCTS = 1000;
const MAX_COMPONENTS = 20000;

const Text = (maxLength = 2000) => Type.String({ maxLength });
const Iri = Type.String({ format: 'uri', maxLength: 2000 });
const Timestamp = Type.String({ format: 'date-time', maxLength: 64 });
const Strings = (maxItems: number) => Type.Array(Text(), { maxItems });

export const OPENVEX_STATUSES = [
  'not_affected',
  'affected',
  'fixed',
  'under_investigation',
] as const;
export const OPENVEX_JUSTIFICATIONS = [
  'component_not_present',
  'vulnerable_code_not_present',
  'vulnerable_code_not_in_execute_path',
  'vulnerable_code_cannot_be_controlled_by_adversary',
  'inline_mitigations_already_exist',
] as const;
export type OpenVexJustification = (typeof OPENVEX_JUSTIFICATIONS)[number];

const Identifiers = Type.Object(
  { purl: Type.Optional(Text()), '@cpe22': Type.Optional(Text()), '@cpe23': Type.Optional(Text()) },
  { additionalProperties: false },
);
const Hashes = Type.Record(Type.String({ maxLength: 20 }), Text(256), { maxProperties: 12 });
const Subcomponent = Type.Object(
  {
    '@id': Type.Optional(Iri),
    identifiers: Type.Optional(Identifiers),
    hashes: Type.Optional(Hashes),
  },
  { additionalProperties: false },
);
const Product = Type.Object(
  {
    ...Subcomponent.properties,
    subcomponents: Type.Optional(Type.Array(Subcomponent, { maxItems: MAX_PRODUCTS })),
  },
  { additionalProperties: false },
);

const OpenVexStatement = Type.Object(
  {
    '@id': Type.Optional(Iri),
    version: Type.Optional(Type.Integer({ minimum: 1 })),
    vulnerability: Type.Object(
      {
        '@id': Type.Optional(Iri),
        name: Text(200),
        description: Type.Optional(Text(20000)),
        aliases: Type.Optional(Strings(100)),
      },
      { additionalProperties: false },
    ),
    timestamp: Type.Optional(Timestamp),
    last_updated: Type.Optional(Timestamp),
    products: Type.Optional(Type.Array(Product, { maxItems: MAX_PRODUCTS })),
    status: Type.Union(OPENVEX_STATUSES.map((s) => Type.Literal(s))),
    supplier: Type.Optional(Text()),
    status_notes: Type.Optional(Text()),
    justification: Type.Optional(Type.Union(OPENVEX_JUSTIFICATIONS.map((j) => Type.Literal(j)))),
    impact_statement: Type.Optional(Text()),
    action_statement: Type.Optional(Text()),
    action_statement_timestamp: Type.Optional(Timestamp),
  },
  {
    additionalProperties: false,
    // The specification's own conditions: a not_affected statement says why, an affected one
    // says what to do.
    allOf: [
      {
        anyOf: [
          { properties: { status: { not: { const: 'not_affected' } } } },
          { required: ['justification'] },
          { required: ['impact_statement'] },
        ],
      },
      {
        anyOf: [
          { properties: { status: { not: { const: 'affected' } } } },
          { required: ['action_statement'] },
        ],
      },
    ],
  },
);

export const OpenVexDocument = Type.Object(
  {
    '@context': Type.String({ pattern: '^https://openvex\\.dev/ns', maxLength: 200 }),
    '@id': Iri,
    author: Text(),
    role: Type.Optional(Text()),
    timestamp: Timestamp,
    last_updated: Type.Optional(Timestamp),
    version: Type.Integer({ minimum: 1 }),
    tooling: Type.Optional(Text()),
    statements: Type.Array(OpenVexStatement, { minItems: 1, maxItems: MAX_VEX_STATEMENTS }),
  },
  { additionalProperties: false },
);
export type OpenVexDocument = Static<typeof OpenVexDocument>;
export type OpenVexStatement = Static<typeof OpenVexStatement>;

export const CYCLONEDX_STATES = [
  'resolved',
  'resolved_with_pedigree',
  'exploitable',
  'in_triage',
  'false_positive',
  'not_affected',
] as const;
export const CYCLONEDX_RESPONSES = [
  'can_not_fix',
  'will_not_fix',
  'update',
  'rollback',
  'workaround_available',
] as const;
const literals = <T extends readonly string[]>(values: T) =>
  Type.Union(values.map((value) => Type.Literal(value)));

const ExternalReference = Type.Object({ type: Text(100), url: Text() });
/** One level of nesting is read (a repository and its packages); deeper ones pass unread. */
const ComponentFields = {
  'bom-ref': Type.Optional(Text()),
  type: Type.Optional(Text(100)),
  name: Type.Optional(Text()),
  group: Type.Optional(Text()),
  version: Type.Optional(Text(500)),
  purl: Type.Optional(Text()),
  externalReferences: Type.Optional(Type.Array(ExternalReference, { maxItems: 100 })),
};
const Component = Type.Object({
  ...ComponentFields,
  components: Type.Optional(Type.Array(Type.Object(ComponentFields), { maxItems: MAX_COMPONENTS })),
});

const AffectedVersion = Type.Object({
  version: Type.Optional(Text(500)),
  range: Type.Optional(Text()),
  status: Type.Optional(literals(['affected', 'unaffected', 'unknown'] as const)),
});

const CycloneDxVulnerability = Type.Object({
  'bom-ref': Type.Optional(Text()),
  id: Type.Optional(Text(200)),
  references: Type.Optional(Type.Array(Type.Object({ id: Text(200) }), { maxItems: 100 })),
  analysis: Type.Optional(
    Type.Object({
      state: Type.Optional(literals(CYCLONEDX_STATES)),
      justification: Type.Optional(literals(VEX_JUSTIFICATIONS)),
      response: Type.Optional(Type.Array(literals(CYCLONEDX_RESPONSES), { maxItems: 5 })),
      detail: Type.Optional(Text()),
      firstIssued: Type.Optional(Timestamp),
      lastUpdated: Type.Optional(Timestamp),
    }),
  ),
  properties: Type.Optional(
    Type.Array(Type.Object({ name: Text(200), value: Type.Optional(Text()) }), { maxItems: 100 }),
  ),
  affects: Type.Optional(
    Type.Array(
      Type.Object({
        ref: Text(),
        versions: Type.Optional(Type.Array(AffectedVersion, { maxItems: MAX_PRODUCTS })),
      }),
      { maxItems: MAX_PRODUCTS },
    ),
  ),
});

export const CycloneDxVexDocument = Type.Object({
  bomFormat: Type.Literal('CycloneDX'),
  specVersion: literals(['1.5', '1.6'] as const),
  components: Type.Optional(Type.Array(Component, { maxItems: MAX_COMPONENTS })),
  vulnerabilities: Type.Array(CycloneDxVulnerability, {
    minItems: 1,
    maxItems: MAX_VEX_STATEMENTS,
  }),
});
export type CycloneDxVexDocument = Static<typeof CycloneDxVexDocument>;
export type CycloneDxVulnerability = Static<typeof CycloneDxVulnerability>;

const addFormats =
  (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;
const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
const validateOpenVex = ajv.compile<OpenVexDocument>(OpenVexDocument);
const validateCycloneDx = ajv.compile<CycloneDxVexDocument>(CycloneDxVexDocument);

export type VexDocument =
  | { format: 'openvex'; specVersion: string; document: OpenVexDocument }
  | { format: 'cyclonedx'; specVersion: string; document: CycloneDxVexDocument };

/** At most this many field errors in a problem body: a hostile document can have millions. */
const MAX_FIELD_ERRORS = 50;

function checked<T>(validate: ValidateFunction<T>, body: unknown): T {
  if (validate(body)) return body;
  const errors: FieldErrors = fieldErrorsFrom((validate.errors ?? []).slice(0, 500), 'body');
  const kept = Object.fromEntries(Object.entries(errors).slice(0, MAX_FIELD_ERRORS));
  throw badRequest('The VEX document does not follow its schema.', kept);
}

/** Tells the format (OpenVEX `@context`, CycloneDX `bomFormat`) and checks the document. */
export function readVexDocument(body: unknown): VexDocument {
  const fields = typeof body === 'object' && body !== null ? Object.entries(body) : [];
  const field = (name: string) => fields.find(([key]) => key === name)?.[1];
  const context = field('@context');
  if (typeof context === 'string' && context.startsWith('https://openvex.dev/ns')) {
    const document = checked(validateOpenVex, body);
    const version = /v(\d+\.\d+\.\d+)/.exec(context)?.[1] ?? '0.2.0';
    return { format: 'openvex', specVersion: version, document };
  }
  if (field('bomFormat') === 'CycloneDX') {
    const document = checked(validateCycloneDx, body);
    return { format: 'cyclonedx', specVersion: document.specVersion, document };
  }
  throw badRequest('The body is not a VEX document.', {
    body: [
      'must be an OpenVEX document (@context https://openvex.dev/ns/v0.2.0) or a CycloneDX 1.5 or 1.6 document (bomFormat CycloneDX) with vulnerabilities',
    ],
  });
}

/** For the OpenAPI description of the import body. */
export const VexImportBody = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'An OpenVEX 0.2.0 document or a CycloneDX 1.5 / 1.6 JSON document with `vulnerabilities` (the format is detected). Content-Type application/json, application/openvex+json or application/vnd.cyclonedx+json.',
  },
);
