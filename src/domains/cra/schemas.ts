import { Type } from 'typebox';
import { enumQuery, TakeSkipQuery } from '../../http/query';
import {
  DateTime,
  ItemsList,
  NullableDateTime,
  NullableString,
  TotalEstimatePage,
  Uuid,
  UuidParam,
} from '../../http/schemas';
import { FINDING_STATES } from './findings/findings';
import { ASSESSMENT_STATUSES, CRA_CLASSIFICATIONS } from './tables';

/** Request and response shapes of the CRA product endpoints (docs/cra.md#products). */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const MAX_PRODUCT_REPOSITORIES = 500;

const Classification = Type.Union(
  CRA_CLASSIFICATIONS.map((c) => Type.Literal(c)),
  { description: `The CRA class: ${CRA_CLASSIFICATIONS.join(', ')}` },
);

const productFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  versionLine: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The version line the product is sold as (for example "2.x")',
  }),
  manufacturer: Type.String({ minLength: 1, maxLength: 300 }),
  supportPeriodEnd: Type.Optional(
    Nullable(
      Type.String({ format: 'date', description: 'End of the support period (Art. 13(8))' }),
    ),
  ),
  classification: Type.Optional(Classification),
  category: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 100,
        description:
          'The Annex III/IV category key (GET /api/v1/cra/products lists them in docs/cra.md); required unless the class is default',
      }),
    ),
  ),
  securityContact: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 320,
        description: 'Where vulnerabilities are reported (an e-mail address or an https URL)',
      }),
    ),
  ),
  cvdPolicyUrl: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 2000,
        format: 'uri',
        description: 'The coordinated vulnerability disclosure policy (http or https URL)',
      }),
    ),
  ),
  repositoryIds: Type.Optional(
    Type.Array(Uuid, {
      maxItems: MAX_PRODUCT_REPOSITORIES,
      uniqueItems: true,
      description: 'The repositories the product is built from (replaces the stored list)',
    }),
  ),
};

export const CreateProductRequest = Type.Object(productFields, { additionalProperties: false });

export const UpdateProductRequest = Type.Object(
  {
    ...productFields,
    name: Type.Optional(productFields.name),
    versionLine: Type.Optional(productFields.versionLine),
    manufacturer: Type.Optional(productFields.manufacturer),
  },
  { additionalProperties: false },
);

export const ConformityRouteSchema = Type.Object({
  modules: Type.Array(Type.String()),
  thirdPartyRequired: Type.Boolean(),
  legalBasis: Type.String(),
  description: Type.String(),
});

export const Product = Type.Object({
  productId: Uuid,
  name: Type.String(),
  versionLine: Type.String(),
  manufacturer: Type.String(),
  supportPeriodEnd: NullableString,
  classification: Type.String({ description: CRA_CLASSIFICATIONS.join(', ') }),
  category: NullableString,
  categoryTitle: NullableString,
  conformityRoute: ConformityRouteSchema,
  securityContact: NullableString,
  cvdPolicyUrl: NullableString,
  repositoryIds: Type.Array(Uuid),
  createdAtUtc: DateTime,
  updatedAtUtc: DateTime,
});

export const ProductPage = TotalEstimatePage(Product);

export const ProductListQuery = Type.Object({
  ...TakeSkipQuery,
  class: enumQuery(CRA_CLASSIFICATIONS, 'CRA class:'),
});

export const ProductIdParam = UuidParam('productId');

export const FindingListQuery = Type.Object({
  ...TakeSkipQuery,
  class: enumQuery(CRA_CLASSIFICATIONS, "The product's CRA class:"),
  state: enumQuery(FINDING_STATES, 'State:'),
  productId: Type.Optional(Uuid),
});

export const Finding = Type.Object({
  findingId: Uuid,
  source: Type.String({ description: 'vulnerability (an exposure) or policy_violation' }),
  productId: Uuid,
  productClass: Type.String(),
  repositoryId: Uuid,
  ecosystem: Type.String(),
  packageName: Type.String(),
  version: NullableString,
  vulnerabilityId: Type.Union([Uuid, Type.Null()]),
  canonicalId: NullableString,
  policyId: Type.Union([Uuid, Type.Null()]),
  severity: NullableString,
  state: Type.String({ description: FINDING_STATES.join(', ') }),
  justification: NullableString,
  sourceStatus: Type.String(),
  activelyExploited: Type.Boolean(),
  knownExploited: Type.Union([
    Type.Object({
      cveId: Type.String(),
      dateAdded: Type.String(),
      dueDate: NullableString,
      knownRansomwareCampaignUse: NullableString,
    }),
    Type.Null(),
  ]),
  fixReleased: Type.Union([Type.Boolean(), Type.Null()]),
  fixedVersions: Type.Array(Type.String()),
  detectedAtUtc: DateTime,
  remediatedAtUtc: NullableDateTime,
  reportedAtUtc: NullableDateTime,
});

export const FindingPage = TotalEstimatePage(Finding);

export const AssessmentListQuery = Type.Object({ productId: Type.Optional(Uuid) });

export const AssessedItemSchema = Type.Object({
  productId: Uuid,
  id: Type.String(),
  reference: Type.String(),
  title: Type.String(),
  status: Type.String({ description: ASSESSMENT_STATUSES.join(', ') }),
  basis: Type.String({ description: 'computed (from the data), assessed (by a person) or none' }),
  evidence: Type.Array(Type.String()),
  note: NullableString,
  evidenceUrl: NullableString,
  assessedAtUtc: NullableDateTime,
  assessedByTokenId: Type.Union([Uuid, Type.Null()]),
});

export const AssessedItemList = ItemsList(AssessedItemSchema);

export const AssessmentRequest = Type.Object(
  {
    productId: Uuid,
    status: Type.Union(
      ASSESSMENT_STATUSES.map((s) => Type.Literal(s)),
      { description: ASSESSMENT_STATUSES.join(', ') },
    ),
    note: Type.String({ minLength: 1, maxLength: 2000, description: 'Why: required' }),
    evidenceUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 2000 }))),
  },
  { additionalProperties: false },
);

export const RequirementIdParam = Type.Object({ requirementId: Type.String({ maxLength: 20 }) });
export const DutyIdParam = Type.Object({ dutyId: Type.String({ maxLength: 60 }) });
