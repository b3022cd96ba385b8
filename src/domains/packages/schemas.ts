import { Type } from 'typebox';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { enumQuery, TakeOnlyQuery, TakeSkipQuery } from '../../http/query';
import {
  DateTime,
  NullableDateTime,
  NullableString,
  TotalReturnedPage,
  Uuid,
} from '../../http/schemas';

/** Request and response shapes of the package endpoints (docs/package-intelligence.md). */

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const MetadataStatus = Type.Union(
  [Type.Literal('found'), Type.Literal('not_found'), Type.Literal('pending')],
  {
    description:
      'found: registry metadata stored; not_found: the registry does not know it; pending: not fetched yet',
  },
);
const Json = Type.Unknown();

export const PackageListQuery = Type.Object({
  ecosystem: enumQuery(ECOSYSTEMS, 'Ecosystem:'),
  search: Type.Optional(
    Type.String({ maxLength: 200, description: 'Case-insensitive substring of the name' }),
  ),
  ...TakeSkipQuery,
});

export const PackageItem = Type.Object({
  packageId: Uuid,
  ecosystem: Type.String(),
  name: Type.String(),
  purl: Type.String(),
  latestStableVersion: NullableString,
  latestVersion: NullableString,
  description: NullableString,
  licence: NullableString,
  repositoryUrl: NullableString,
  deprecated: Type.Boolean(),
  metadataStatus: MetadataStatus,
  metadataPendingReason: Type.Union([Type.String(), Type.Null()], {
    description:
      'pending only: why (waiting for the first fetch, the registry cannot be reached, asked to wait, answered unusably, or is off) and when it is tried next',
  }),
  metadataFetchedAtUtc: NullableDateTime,
  createdAtUtc: DateTime,
});

export const PackageList = TotalReturnedPage(PackageItem);

export const PackageDetail = Type.Object({
  ...PackageItem.properties,
  deprecationMessage: NullableString,
  successor: NullableString,
  homepage: NullableString,
  maintainers: Type.Array(Type.String()),
  versionCount: Type.Integer(),
  firstReleaseAtUtc: NullableDateTime,
  lastReleaseAtUtc: NullableDateTime,
  latestStableReleasedAtUtc: NullableDateTime,
  releasesLastYear: Type.Integer(),
  medianDaysBetweenReleases: NullableNumber,
  installScripts: Type.Union([Type.Array(Type.String()), Type.Null()]),
  downloads: Type.Union([
    Type.Object({ count: Type.Number(), period: Type.String() }),
    Type.Null(),
  ]),
  notes: Type.Array(Type.String()),
  watched: Type.Boolean(),
  recentVersions: Type.Array(
    Type.Object({
      version: Type.String(),
      publishedAtUtc: NullableDateTime,
      prerelease: Type.Boolean(),
      deprecated: Type.Boolean(),
      yanked: Type.Boolean(),
      licence: NullableString,
    }),
  ),
});

const Weights = Type.Record(Type.String(), Type.Number());

export const PackageHealth = Type.Object({
  packageId: Uuid,
  status: MetadataStatus,
  score: NullableInteger,
  computedAtUtc: DateTime,
  weights: Weights,
  signals: Type.Array(
    Type.Object({
      signal: Type.String(),
      value: Json,
      score: NullableNumber,
      weight: Type.Number(),
      points: NullableNumber,
      source: Type.String(),
      observedAtUtc: DateTime,
      detail: Type.String(),
    }),
  ),
});

export const HealthHistoryQuery = Type.Object({ ...TakeOnlyQuery });

export const HealthHistory = Type.Object({
  packageId: Uuid,
  items: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date' }),
      computedAtUtc: DateTime,
      score: NullableInteger,
      defaultWeightsScore: NullableInteger,
    }),
  ),
  totalReturned: Type.Integer(),
  take: Type.Integer(),
});

export const Evidence = Type.Object({
  packageId: Uuid,
  items: Type.Array(
    Type.Object({
      kind: Type.Union([
        Type.Literal('registry-fact'),
        Type.Literal('health-signal'),
        Type.Literal('risk-indicator'),
      ]),
      key: Type.String(),
      value: Json,
      source: Type.String(),
      observedAtUtc: NullableDateTime,
      detail: Type.String(),
    }),
  ),
});

export const RiskIndicators = Type.Object({
  packageId: Uuid,
  evaluatedAtUtc: DateTime,
  items: Type.Array(
    Type.Object({
      kind: Type.String(),
      severity: Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')]),
      title: Type.String(),
      evidence: Json,
      source: Type.String(),
      observedAtUtc: DateTime,
    }),
  ),
});

const Drift = Type.Object({
  state: Type.String({ description: 'measured | pending | unknown_version | not_in_registry' }),
  comparedVersion: NullableString,
  latestStableVersion: NullableString,
  libyear: NullableNumber,
  majorBehind: NullableInteger,
  minorBehind: NullableInteger,
  patchBehind: NullableInteger,
  versionsBehind: NullableInteger,
  deprecated: Type.Boolean(),
  yanked: Type.Boolean(),
  endOfLife: Type.Boolean(),
  endOfLifeReason: NullableString,
});

export const Usage = Type.Object({
  packageId: Uuid,
  repositoryCount: Type.Integer(),
  items: Type.Array(
    Type.Object({
      repositoryId: Uuid,
      repositoryName: Type.String(),
      scanId: Uuid,
      version: NullableString,
      resolution: Type.String(),
      scope: Type.String(),
      direct: Type.Boolean(),
      file: Type.String(),
      sourceKind: Type.String(),
      observedAtUtc: DateTime,
      drift: Drift,
    }),
  ),
});

export const Summary = Type.Object({
  ...PackageItem.properties,
  deprecationMessage: NullableString,
  healthScore: NullableInteger,
  riskIndicatorCount: Type.Integer(),
  highestRiskSeverity: Type.Union([Type.String(), Type.Null()]),
  riskKinds: Type.Array(Type.String()),
  knownVulnerabilities: NullableInteger,
  repositoriesUsing: Type.Integer(),
  versionsInUse: Type.Array(Type.String()),
  drift: Type.Object({
    maxLibyear: NullableNumber,
    maxMajorBehind: NullableInteger,
    outdatedUses: Type.Integer(),
    deprecatedUses: Type.Integer(),
    yankedUses: Type.Integer(),
    endOfLifeUses: Type.Integer(),
  }),
  replacementCandidateCount: Type.Integer(),
  watched: Type.Boolean(),
  evaluatedAtUtc: DateTime,
});

export const ReplacementCandidates = Type.Object({
  packageId: Uuid,
  curatedMappingVersion: Type.String(),
  items: Type.Array(
    Type.Object({
      name: Type.String(),
      ecosystem: Type.String(),
      packageId: Type.Union([Uuid, Type.Null()]),
      reason: Type.String(),
      confidence: Type.Union([Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')]),
      sources: Type.Array(Type.String()),
      evidence: Type.String(),
    }),
  ),
});

export const WatchBody = Type.Object(
  { note: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])) },
  { additionalProperties: false },
);

export const Watch = Type.Object({
  watchId: Uuid,
  packageId: Uuid,
  note: NullableString,
  watchedAtUtc: DateTime,
  created: Type.Boolean(),
});

export const WatchedPackage = Type.Object({
  watchId: Uuid,
  packageId: Uuid,
  ecosystem: Type.String(),
  name: Type.String(),
  purl: Type.String(),
  latestStableVersion: NullableString,
  deprecated: Type.Boolean(),
  note: NullableString,
  watchedAtUtc: DateTime,
});

export const WatchedList = TotalReturnedPage(WatchedPackage);
