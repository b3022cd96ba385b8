import { type TSchema, Type } from 'typebox';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { enumQuery, TakeSkipQuery } from '../../http/query';
import { DateTime, NullableDateTime, TotalEstimatePage, Uuid } from '../../http/schemas';
import { SEVERITY_RATINGS } from '../../intel/osv/types';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const VulnerabilityListQuery = Type.Object({
  ...TakeSkipQuery,
  severity: enumQuery(SEVERITY_RATINGS, 'Severity:'),
  ecosystem: enumQuery(ECOSYSTEMS, 'Ecosystem:'),
  search: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'Case-insensitive substring of an identifier, the summary or a package name',
    }),
  ),
  publishedFromUtc: Type.Optional(Type.String({ format: 'date-time' })),
  publishedToUtc: Type.Optional(Type.String({ format: 'date-time' })),
  includeWithdrawn: Type.Optional(
    Type.Boolean({ description: 'Also list withdrawn vulnerabilities (default false)' }),
  ),
});

export const VulnerabilityIdParam = Type.Object({
  vulnerabilityId: Type.String({
    minLength: 1,
    maxLength: 256,
    description: 'The vulnerability UUID, or any of its identifiers (CVE-..., GHSA-..., PYSEC-...)',
  }),
});

const vulnerabilityFields = {
  vulnerabilityId: Uuid,
  canonicalId: Type.String({ description: 'Preferred identifier: a CVE when known, then GHSA' }),
  kind: Type.String({
    description:
      'vulnerability, or malicious: a package published to do harm (an OSV MAL- record); always critical',
  }),
  aliases: Type.Array(Type.String(), { description: 'Every other identifier of the same flaw' }),
  summary: Nullable(Type.String()),
  severity: Nullable(Type.String({ description: 'low, medium, high or critical' })),
  severityScore: Nullable(Type.Number()),
  severityVector: Nullable(Type.String()),
  severitySource: Nullable(Type.String({ description: 'cvss_v4, cvss_v3, database or none' })),
  ecosystems: Type.Array(Type.String()),
  publishedUtc: NullableDateTime,
  modifiedUtc: DateTime,
  withdrawnUtc: NullableDateTime,
};

export const VulnerabilityListItem = Type.Object(vulnerabilityFields);
export const VulnerabilityPage = TotalEstimatePage(VulnerabilityListItem);

const Range = Type.Object({
  type: Type.String({ description: 'ECOSYSTEM, SEMVER or GIT' }),
  repo: Nullable(Type.String()),
  events: Type.Array(
    Type.Object({
      kind: Type.String({ description: 'introduced, fixed, last_affected or limit' }),
      version: Type.String(),
    }),
  ),
});

export const AffectedEntry = Type.Object({
  advisoryId: Type.String(),
  ecosystem: Type.String(),
  osvEcosystem: Type.String(),
  name: Type.String(),
  packageId: Nullable(Uuid),
  ranges: Type.Array(Range),
  versions: Type.Array(Type.String(), { description: 'Enumerated affected versions' }),
  fixedVersions: Type.Array(Type.String()),
  withdrawn: Type.Boolean(),
});

export const VulnerabilityDetail = Type.Object({
  ...vulnerabilityFields,
  details: Nullable(Type.String()),
  advisories: Type.Array(
    Type.Object({
      id: Type.String(),
      summary: Nullable(Type.String()),
      severity: Nullable(Type.String()),
      severityScore: Nullable(Type.Number()),
      severityVector: Nullable(Type.String()),
      publishedUtc: NullableDateTime,
      modifiedUtc: DateTime,
      withdrawnUtc: NullableDateTime,
    }),
  ),
  affected: Type.Array(AffectedEntry),
  fixedVersions: Type.Array(Type.String()),
  references: Type.Array(Type.Object({ type: Type.String(), url: Type.String() })),
  exposures: Type.Object(
    {
      total: Type.Integer(),
      unresolved: Type.Integer({
        description: 'Not fixed, not dismissed (open, investigating, affected)',
      }),
      byStatus: Type.Record(Type.String(), Type.Integer()),
    },
    { description: "The calling tenant's exposures to this vulnerability" },
  ),
});

export const VersionInUse = Type.Object({
  version: Nullable(Type.String()),
  resolution: Type.String(),
  repositoryCount: Type.Integer(),
  status: Type.String({ description: 'affected or possibly_affected' }),
});

export const PackageVulnerabilities = Type.Object({
  packageId: Uuid,
  ecosystem: Type.String(),
  name: Type.String(),
  purl: Type.String(),
  items: Type.Array(
    Type.Object({
      ...vulnerabilityFields,
      affected: Type.Array(AffectedEntry),
      fixedVersions: Type.Array(Type.String()),
      affectedVersionsInUse: Type.Array(VersionInUse, {
        description: "The tenant's versions of the package that this vulnerability affects",
      }),
    }),
  ),
  total: Type.Integer(),
  versionsInUse: Type.Array(
    Type.Object({
      version: Nullable(Type.String()),
      resolution: Type.String(),
      repositoryCount: Type.Integer(),
      vulnerabilityIds: Type.Array(Uuid),
    }),
  ),
});
