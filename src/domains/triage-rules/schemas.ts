import { Type } from 'typebox';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { enumQuery, TakeSkipQuery } from '../../http/query';
import { DateTime, NullableDateTime, TotalEstimatePage, Uuid } from '../../http/schemas';
import { VEX_JUSTIFICATIONS } from '../exposures/state-machine';
import { RULE_STATUSES } from './tables';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const CreateTriageRuleRequest = Type.Object(
  {
    vulnerability: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'An advisory identifier (CVE-..., GHSA-..., MAL-...), matched against every alias of a vulnerability, or a vulnerability id',
    }),
    purl: Type.Optional(
      Nullable(
        Type.String({ maxLength: 2000, description: 'The package (its version is ignored)' }),
      ),
    ),
    ecosystem: Type.Optional(
      Nullable(Type.String({ description: 'With packageName, instead of purl' })),
    ),
    packageName: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    versionRange: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2000,
          description: 'A vers range (vers:npm/>=1.0.0|<2.0.0); null or absent: every version',
        }),
      ),
    ),
    repositoryIds: Type.Optional(
      Nullable(
        Type.Array(Uuid, {
          maxItems: 1000,
          description: 'The repositories it applies to; empty or absent: every repository',
        }),
      ),
    ),
    status: Type.String({ description: `One of ${RULE_STATUSES.join(', ')}` }),
    justification: Type.Optional(
      Nullable(
        Type.String({ description: `not_affected: one of ${VEX_JUSTIFICATIONS.join(', ')}` }),
      ),
    ),
    reason: Type.Optional(
      Nullable(Type.String({ description: 'Why; required for accepted_risk' })),
    ),
    expiresAtUtc: Type.Optional(
      Nullable(
        Type.String({ format: 'date-time', description: 'accepted_risk: when the rule ends' }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const TriageRule = Type.Object({
  triageRuleId: Uuid,
  vulnerability: Type.String(),
  ecosystem: Type.String(),
  packageName: Type.String(),
  purl: Type.String({ description: 'The package, without a version' }),
  versionRange: Nullable(Type.String()),
  repositoryIds: Type.Array(Uuid, { description: 'Empty: every repository' }),
  status: Type.String(),
  justification: Nullable(Type.String()),
  reason: Nullable(Type.String()),
  expiresAtUtc: NullableDateTime,
  origin: Type.String({ description: 'api, or vex (imported from a VEX document)' }),
  active: Type.Boolean({ description: 'Neither revoked nor expired' }),
  exposureCount: Type.Integer({ description: 'Exposures carrying its decision now' }),
  createdAtUtc: DateTime,
  createdByTokenId: Nullable(Uuid),
  revokedAtUtc: NullableDateTime,
  revokedByTokenId: Nullable(Uuid),
});

export const CreatedTriageRule = Type.Object({
  ...TriageRule.properties,
  exposuresSettled: Type.Integer({ description: 'Open exposures it settled when created' }),
});

export const TriageRuleListQuery = Type.Object({
  ...TakeSkipQuery,
  status: enumQuery(RULE_STATUSES, 'Status:'),
  ecosystem: enumQuery(ECOSYSTEMS, 'Ecosystem:'),
  active: Type.Optional(
    Type.Boolean({ description: 'true: live rules; false: revoked or expired' }),
  ),
});

export const TriageRulePage = TotalEstimatePage(TriageRule);

export const VexImportQuery = Type.Object({
  acceptedRiskExpiresAtUtc: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'When the accepted_risk rules this import creates end (a VEX document carries no expiry); without it, accepted statements are skipped',
    }),
  ),
});

const VexImportResult = Type.Object({
  statement: Type.Integer({
    description: 'Position of the statement (OpenVEX) or vulnerability (CycloneDX)',
  }),
  vulnerability: Nullable(Type.String()),
  status: Nullable(Type.String({ description: 'The status as the document gives it' })),
  purl: Nullable(Type.String()),
  versionRange: Nullable(Type.String()),
  repositoryIds: Type.Array(Uuid),
  outcome: Type.String({ description: 'created | updated | unchanged | skipped' }),
  ruleStatus: Nullable(
    Type.String({ description: 'The status the rule keeps (accepted_risk for a will_not_fix)' }),
  ),
  justification: Nullable(
    Type.String({
      description:
        'The justification the rule keeps, in the CycloneDX vocabulary (an OpenVEX one mapped: docs/triage.md#vex)',
    }),
  ),
  expiresAtUtc: Nullable(
    Type.String({
      format: 'date-time',
      description: "The accepted risk's end: the statement's own, else the request's",
    }),
  ),
  triageRuleId: Nullable(Uuid),
  replacedTriageRuleId: Nullable(Uuid),
  reason: Nullable(Type.String({ description: 'Why it was skipped' })),
});

export const VexImportSummary = Type.Object({
  format: Type.String({ description: 'openvex | cyclonedx' }),
  specVersion: Type.String(),
  statements: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer({ description: 'Live rules replaced by a different decision' }),
  unchanged: Type.Integer({ description: 'Live rules that already said the same' }),
  skipped: Type.Integer(),
  exposuresSettled: Type.Integer(),
  results: Type.Array(VexImportResult, {
    description: 'One per (statement, package, version range), in statement order',
  }),
});

export const VexExportQuery = Type.Object({
  format: Type.Optional(Type.String({ description: 'openvex (default) or cyclonedx' })),
  repositoryId: Type.Optional(Uuid),
});
