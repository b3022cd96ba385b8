import { Type } from 'typebox';
import { NullableDateTime } from '../../http/schemas';
import { DEFAULT_WEIGHTS, SIGNAL_KEYS } from '../../intel/health/weights';
import { INDUSTRIES, SIZE_BANDS } from './benchmark';

/** Request and response schemas of the tenant settings routes (docs/package-intelligence.md). */

const weightProperties = Object.fromEntries(
  SIGNAL_KEYS.map((key) => [
    key,
    Type.Number({ minimum: 0, description: `Weight of ${key} (default ${DEFAULT_WEIGHTS[key]})` }),
  ]),
);

export const ScoringWeights = Type.Object(weightProperties, {
  description: 'Health signal weights: non-negative numbers summing to 100',
});
export const ScoringWeightsPatch = Type.Object(
  Object.fromEntries(Object.entries(weightProperties).map(([k, v]) => [k, Type.Optional(v)])),
  {
    additionalProperties: true,
    description:
      'The complete weights object (replaces the stored one); a signal left out weighs 0',
  },
);

const Aggregate = Type.Object({
  mean: Type.Union([Type.Number(), Type.Null()]),
  p25: Type.Union([Type.Number(), Type.Null()]),
  median: Type.Union([Type.Number(), Type.Null()]),
  p75: Type.Union([Type.Number(), Type.Null()]),
});
const Figures = Type.Object({
  libyearPerDependency: Type.Union([Type.Number(), Type.Null()]),
  outdatedShare: Type.Union([Type.Number(), Type.Null()]),
  meanHealthScore: Type.Union([Type.Number(), Type.Null()]),
});

export const BenchmarkProfile = Type.Object({
  industry: Type.Union([Type.String(), Type.Null()]),
  sizeBand: Type.Union([Type.String(), Type.Null()]),
  optIn: Type.Boolean(),
  updatedAtUtc: NullableDateTime,
  benchmark: Type.Object({
    available: Type.Boolean(),
    reason: Type.Union([Type.String(), Type.Null()]),
    minimumPeerTenants: Type.Integer(),
    peerTenants: Type.Union([Type.Integer(), Type.Null()]),
    self: Type.Union([Figures, Type.Null()]),
    peers: Type.Union([
      Type.Object({
        libyearPerDependency: Aggregate,
        outdatedShare: Aggregate,
        meanHealthScore: Aggregate,
      }),
      Type.Null(),
    ]),
  }),
});

export const BenchmarkProfilePatch = Type.Object(
  {
    industry: Type.Optional(
      Type.Union([Type.String({ description: `One of ${INDUSTRIES.join(', ')}` }), Type.Null()]),
    ),
    sizeBand: Type.Optional(
      Type.Union([Type.String({ description: `One of ${SIZE_BANDS.join(', ')}` }), Type.Null()]),
    ),
    optIn: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const QuestionSettings = Type.Object(
  {
    recordQuestionText: Type.Boolean({
      description: "Whether the audit entry of POST /api/v1/ai/query keeps the question's text",
    }),
  },
  { additionalProperties: false },
);
