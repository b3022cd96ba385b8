import { Type } from 'typebox';
import { DateTime, NullableString } from '../../http/schemas';

const Counts = Type.Record(Type.String(), Type.Integer());
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

const Headline = Type.Object({
  current: Type.Number(),
  change7d: NullableNumber,
  change30d: NullableNumber,
});

const ByClassification = Type.Object({
  weak: Type.Integer(),
  deprecated2030: Type.Integer(),
  disallowed2035: Type.Integer(),
  hybrid: Type.Integer(),
  quantumSafe: Type.Integer(),
});

const ReadinessParts = {
  findings: Type.Object(
    { unresolved: Type.Integer(), byClassification: ByClassification },
    {
      description:
        'Quantum findings the latest scans saw, not triaged not_affected or false_positive, by classification',
    },
  ),
  certificates: Type.Object({
    total: Type.Integer(),
    weak: Type.Integer({ description: 'Classified weak (SHA-1/MD5 signature, RSA under 2048)' }),
    quantumVulnerable: Type.Integer({
      description: 'Classified weak, deprecated-2030 or disallowed-2035',
    }),
    expiringWithin30Days: Type.Integer(),
    expired: Type.Integer(),
  }),
  tlsEndpoints: Type.Object({
    total: Type.Integer(),
    byVerdict: Type.Object(
      {
        vulnerable: Type.Integer(),
        hybrid: Type.Integer(),
        pqKex: Type.Integer(),
        quantumSafe: Type.Integer(),
        unreachable: Type.Integer(),
        refused: Type.Integer(),
        notProbed: Type.Integer(),
      },
      { description: "Watched endpoints by their latest observation's state" },
    ),
  }),
  readiness: Type.Union([Type.Number(), Type.Null()], {
    description:
      'Share (0 to 1) of the cryptographic assets that are hybrid, quantum-safe or pq-kex: findings that count, certificates, endpoints with a verdict; null when there are none',
  }),
  assets: Type.Object({ total: Type.Integer(), ready: Type.Integer() }),
};

const QuantumReadiness = Type.Union(
  [
    Type.Object({
      ...ReadinessParts,
      repositories: Type.Object({
        total: Type.Integer({ description: 'Repositories with a quantum inventory' }),
        items: Type.Array(
          Type.Object({ repositoryId: Type.String(), name: Type.String(), ...ReadinessParts }),
          { description: 'At most 100, least ready first' },
        ),
        truncated: Type.Boolean(),
      }),
    }),
    Type.Null(),
  ],
  {
    description:
      "Post-quantum readiness (docs/workspace.md#quantum-readiness); null when the tenant's plan lacks the quantum feature",
  },
);

export const GlobalDashboard = Type.Object({
  generatedAtUtc: DateTime,
  repositories: Type.Object({
    total: Type.Integer(),
    byCriticality: Counts,
    byLastScanState: Counts,
  }),
  dependencies: Type.Object({
    total: Type.Integer(),
    direct: Type.Integer(),
    transitive: Type.Integer(),
    byEcosystem: Type.Array(
      Type.Object({
        ecosystem: Type.String(),
        total: Type.Integer(),
        direct: Type.Integer(),
        transitive: Type.Integer(),
      }),
    ),
  }),
  exposures: Type.Object({
    unresolved: Type.Integer({
      description: 'Unresolved vulnerability and malicious-package exposures',
    }),
    bySeverity: Counts,
    malicious: Type.Object({
      unresolved: Type.Integer({
        description: 'Unresolved malicious-package exposures (not in bySeverity)',
      }),
      repositories: Type.Integer({ description: 'Repositories with at least one of them' }),
    }),
    byStatus: Counts,
  }),
  violations: Type.Object({ open: Type.Integer(), bySeverity: Counts }),
  alerts: Type.Object({ open: Type.Integer() }),
  drift: Type.Object({
    libyearTotal: Type.Number(),
    majorBehind: Type.Integer(),
    minorBehind: Type.Integer(),
    patchBehind: Type.Integer(),
    deprecated: Type.Integer(),
    endOfLife: Type.Integer(),
  }),
  healthScores: Type.Object(
    {
      packages: Type.Integer({ description: 'Distinct packages the tenant depends on' }),
      buckets: Type.Array(
        Type.Object({ from: Type.Integer(), to: Type.Integer(), packages: Type.Integer() }),
        { description: 'Packages by latest health score (default weights), 0–19 … 80–100' },
      ),
      unscored: Type.Integer({ description: 'Packages without a health score yet' }),
    },
    { description: 'The health score distribution of the packages in use' },
  ),
  topRepositories: Type.Object({
    byLibyear: Type.Array(
      Type.Object({ repositoryId: Type.String(), name: Type.String(), libyear: Type.Number() }),
    ),
    byCriticalExposures: Type.Array(
      Type.Object({ repositoryId: Type.String(), name: Type.String(), critical: Type.Integer() }),
    ),
  }),
  quantum: QuantumReadiness,
  changes: Type.Object(
    {
      repositories: Headline,
      dependencies: Headline,
      exposuresUnresolved: Headline,
      exposuresCritical: Headline,
      libyear: Headline,
      violationsOpen: Headline,
      alertsOpen: Headline,
      majorBehind: Headline,
      minorBehind: Headline,
      patchBehind: Headline,
      deprecated: Headline,
      endOfLife: Headline,
    },
    {
      description:
        "Each headline number now and its change against the tenant's daily rollup of 7 and 30 days ago (null when the rollups do not reach back that far)",
    },
  ),
});

const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

export const Trends = Type.Object({
  fromUtc: DateTime,
  toUtc: DateTime,
  interval: Type.String(),
  repositoryId: NullableString,
  ecosystem: NullableString,
  points: Type.Array(
    Type.Object({
      bucketStartUtc: DateTime,
      exposuresOpened: Type.Integer(),
      exposuresFixed: Type.Integer(),
      exposuresOpen: NullableInteger,
      exposuresCriticalOpen: NullableInteger,
      exposuresOpenBySeverity: Type.Union([
        Type.Object({
          critical: Type.Integer(),
          high: Type.Integer(),
          medium: Type.Integer(),
          low: Type.Integer(),
        }),
        Type.Null(),
      ]),
      meanTimeToFixSeconds: Type.Record(Type.String(), NullableInteger),
      libyear: NullableNumber,
      violationsOpen: NullableInteger,
      dependencies: NullableInteger,
      scans: Type.Integer(),
    }),
  ),
});
