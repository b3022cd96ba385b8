import { Type } from 'typebox';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { enumQuery, TakeSkipQuery } from '../../http/query';
import { DateTime, NullableDateTime, TotalEstimatePage, Uuid } from '../../http/schemas';
import { FINDING_KINDS, SEVERITY_RATINGS } from '../../intel/osv/types';
import { REACHABILITIES } from '../../intel/reachability/analyse';
import { TRIAGE_STATUSES, VEX_JUSTIFICATIONS } from './state-machine';
import { EXPOSURE_STATUSES } from './tables';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const ExposureListQuery = Type.Object({
  ...TakeSkipQuery,
  repositoryId: Type.Optional(Uuid),
  severity: enumQuery(SEVERITY_RATINGS, 'Severity:'),
  status: enumQuery(EXPOSURE_STATUSES, 'Status:'),
  ecosystem: enumQuery(ECOSYSTEMS, 'Ecosystem:'),
  packageId: Type.Optional(Uuid),
  vulnerabilityId: Type.Optional(Uuid),
  triageRuleId: Type.Optional(Uuid),
  kind: enumQuery(FINDING_KINDS, 'Kind (malicious: a package published to do harm):'),
  possiblyAffected: Type.Optional(
    Type.Boolean({
      description:
        'true: only declared ranges and unpinned dependencies; false: only exact versions',
    }),
  ),
  reachability: enumQuery(
    REACHABILITIES,
    "Import-level reachability (imported: the repository's code imports the package, directly or through its dependency chain; used_by_tooling: only scripts or tool configurations use it):",
  ),
});

const MatchedEntry = Type.Object({
  advisoryId: Type.String(),
  ranges: Type.Array(
    Type.Object({
      type: Type.String(),
      repo: Nullable(Type.String()),
      events: Type.Array(Type.Object({ kind: Type.String(), version: Type.String() })),
    }),
  ),
  versions: Type.Array(Type.String(), {
    description: 'Enumerated affected versions (the first 200)',
  }),
});

export const Exposure = Type.Object({
  exposureId: Uuid,
  repositoryId: Uuid,
  packageId: Uuid,
  purl: Type.String({ description: 'Package URL without a version' }),
  ecosystem: Type.String(),
  packageName: Type.String(),
  version: Nullable(Type.String()),
  resolution: Type.String({ description: 'resolved, declared or unpinned' }),
  kind: Type.String({
    description:
      'vulnerability, or malicious: the package was published to do harm (an OSV MAL- record); always critical',
  }),
  possiblyAffected: Type.Boolean({
    description:
      'true when the dependency is a declared range or unpinned: it may resolve to an affected version',
  }),
  possiblyAffectedReason: Nullable(
    Type.String({
      description:
        'why a matched version is only possibly affected: "replaced by <module>" for a Go module swapped out by replace',
    }),
  ),
  reachability: Type.String({
    description:
      "imported, used_by_tooling, not_imported or unknown: whether the repository's own code imports the package, directly or through the dependency chain, or only its scripts and tool configurations use it (npm, PyPI and Go; docs/reachability.md)",
  }),
  reachabilityEvidence: Nullable(
    Type.Object({
      file: Type.String({
        description:
          'First-party file of the first import (used_by_tooling: the script or configuration)',
      }),
      line: Type.Integer({ description: '1-based line of that import' }),
      import: Type.String({
        description: 'The import, script word or configuration string as written',
      }),
      chain: Type.Array(Type.String(), {
        description:
          'From the directly used package down to this one; past 32 packages the first 16, "… N more …" and the last 16',
      }),
    }),
  ),
  reachabilityReason: Nullable(
    Type.String({
      description: 'Why used_by_tooling (which script or tool), not_imported or unknown',
    }),
  ),
  vulnerabilityId: Uuid,
  canonicalId: Type.String({ description: 'Canonical identifier (CVE, GHSA, ...)' }),
  aliases: Type.Array(Type.String()),
  advisoryIds: Type.Array(Type.String()),
  summary: Nullable(Type.String()),
  severity: Nullable(Type.String({ description: 'low, medium, high or critical' })),
  severityScore: Nullable(Type.Number()),
  severityVector: Nullable(Type.String()),
  affectedRanges: Type.Array(MatchedEntry),
  fixedVersions: Type.Array(Type.String()),
  files: Type.Array(Type.String()),
  status: Type.String({ description: EXPOSURE_STATUSES.join(', ') }),
  justification: Nullable(Type.String()),
  reason: Nullable(Type.String()),
  expiresAtUtc: Nullable(DateTime),
  statusChangedAtUtc: NullableDateTime,
  statusChangedByTokenId: Nullable(Uuid),
  fixedReason: Nullable(Type.String()),
  firstSeenUtc: DateTime,
  lastSeenUtc: DateTime,
  fixedUtc: NullableDateTime,
  reintroducedCount: Type.Integer(),
  lastScanId: Nullable(Uuid),
  triageRuleId: Type.Union([Uuid, Type.Null()], {
    description: 'The triage rule whose decision this exposure carries (docs/triage.md), else null',
  }),
});

export const ExposurePage = TotalEstimatePage(Exposure);

export const TriageRequest = Type.Object({
  status: Type.String({
    description: `New status: ${TRIAGE_STATUSES.join(', ')} (fixed is set by the system only)`,
  }),
  justification: Type.Optional(
    Nullable(
      Type.String({
        description: `Required for not_affected (CycloneDX VEX): ${VEX_JUSTIFICATIONS.join(', ')}`,
      }),
    ),
  ),
  reason: Type.Optional(
    Nullable(
      Type.String({ description: 'Why (recorded in the audit log); required for accepted_risk' }),
    ),
  ),
  expiresAtUtc: Type.Optional(
    Nullable(
      Type.String({
        format: 'date-time',
        description:
          'Required for accepted_risk: when the acceptance ends and the exposure reopens',
      }),
    ),
  ),
});
