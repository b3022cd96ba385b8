import { Type } from 'typebox';
import { DateTime, NullableString, Uuid } from '../../http/schemas';

/** IDE verdicts (docs/policies.md#ide-verdicts). */

export const VerdictPackageInput = Type.Object(
  {
    purl: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'Package URL (pkg:npm/lodash@4.17.20)',
      }),
    ),
    ecosystem: Type.Optional(
      Type.String({ minLength: 1, maxLength: 32, description: 'npm, PyPI, Maven, Go, Cargo, ...' }),
    ),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'Package name' })),
    version: Type.Optional(
      Type.Union([Type.String({ maxLength: 256 }), Type.Null()], {
        description: 'Exact version (a range is judged as possibly affected); overrides the purl',
      }),
    ),
  },
  { additionalProperties: false, description: 'A purl, or an ecosystem and a name' },
);

export const VerdictBatchRequest = Type.Object(
  {
    packages: Type.Array(VerdictPackageInput, {
      minItems: 1,
      description: 'The packages to judge (at most IDE_VERDICTS_MAX_PACKAGES: 413 above)',
    }),
    repositoryId: Type.Optional(
      Type.Union([Uuid, Type.Null()], {
        description:
          'Judge as a dependency of this repository: its policies scoped to repositories apply',
      }),
    ),
  },
  { additionalProperties: false },
);

const FiringPolicy = Type.Object({
  policyId: Uuid,
  name: Type.String(),
  severity: Type.String({ description: 'low, medium, high, critical' }),
  action: Type.String({ description: 'inform, warn, block' }),
  status: Type.String({
    description:
      'Where its violation stands here: open, acknowledged, dismissed or excepted (a dismissal or an exception in the repository, or a tenant-wide exception); open when none exists yet',
  }),
  blocking: Type.Boolean({
    description: 'Action block and status open or acknowledged: what the CI gate blocks on',
  }),
  violationId: Type.Union([Uuid, Type.Null()], {
    description: 'The stored violation of the repository, when there is one',
  }),
  exceptionId: Type.Union([Uuid, Type.Null()], { description: 'The exception covering it' }),
});

const VerdictVulnerability = Type.Object({
  id: Type.String({ description: 'Canonical identifier (CVE, GHSA, ...)' }),
  aliases: Type.Array(Type.String()),
  severity: NullableString,
  cvss: Type.Union([Type.Number(), Type.Null()]),
  fixAvailable: Type.Boolean(),
  fixedVersions: Type.Array(Type.String()),
  status: Type.String({
    description: 'Exposure status in the repository given, else open',
  }),
  match: Type.String({ description: 'affected (exact version) or possibly_affected (a range)' }),
  malicious: Type.Boolean({ description: 'A malicious-package record (OSV MAL-)' }),
});

export const PackageVerdict = Type.Object({
  index: Type.Integer({ description: 'Position in the request' }),
  ecosystem: Type.String(),
  name: Type.String({ description: "Normalised the ecosystem's way" }),
  version: NullableString,
  purl: Type.String(),
  packageId: Type.Union([Uuid, Type.Null()], { description: 'null: never seen by the service' }),
  seen: Type.Boolean({ description: 'The service has this package in its catalogue' }),
  verdict: Type.String({ description: 'allow, warn or block' }),
  reasons: Type.Array(Type.String(), { description: 'Why, for people' }),
  policies: Type.Array(FiringPolicy, { description: 'The policies whose condition holds' }),
  vulnerabilities: Type.Array(VerdictVulnerability),
  health: Type.Object({
    known: Type.Boolean(),
    score: Type.Union([Type.Number(), Type.Null()]),
  }),
  knowledge: Type.Object(
    {
      advisories: Type.Boolean({ description: 'Always: the advisory store was consulted' }),
      registryMetadata: Type.Boolean(),
      versionListed: Type.Boolean({ description: 'The registry lists this version' }),
      health: Type.Boolean(),
    },
    { description: 'What the service knew when it judged' },
  ),
});

const RepositoryVerdict = Type.Object(
  {
    repositoryId: Uuid,
    verdict: Type.String({ description: 'allow, warn or block' }),
    reasons: Type.Array(Type.String(), { description: 'Why, for people' }),
    policies: Type.Array(FiringPolicy, {
      description:
        'The repository conditions (policies on quantum facts) that hold for the repository now',
    }),
  },
  {
    description:
      "The repository's own verdict from its repository conditions (docs/policies.md#repository-conditions), the same standing the CI gate reads; null without a repositoryId",
  },
);

export const VerdictBatchResponse = Type.Object({
  items: Type.Array(PackageVerdict),
  repository: Type.Union([RepositoryVerdict, Type.Null()]),
  policiesEvaluated: Type.Integer({ description: 'Enabled policies that applied' }),
  evaluatedAtUtc: DateTime,
});
