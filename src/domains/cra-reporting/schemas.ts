import { Type } from 'typebox';
import { TakeSkipQuery } from '../../http/query';
import {
  DateTime,
  ItemsList,
  NullableDateTime,
  NullableString,
  TotalEstimatePage,
  Uuid,
} from '../../http/schemas';
import { CLOCK_KINDS, CLOCK_STATES, CLOCK_TRIGGERS } from './clocks/rules';
import { PACK_STATES, SEVERE_BECAUSE } from './tables';

const NullableUuid = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uuid' });
/** A string that is one of `values` (enum in the schema, the union as its static type). */
const literals = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });

export const Clock = Type.Object({
  clockId: Uuid,
  productId: Uuid,
  trigger: literals(CLOCK_TRIGGERS),
  vulnerabilityId: NullableUuid,
  exposureId: NullableUuid,
  incidentId: NullableUuid,
  kind: literals(CLOCK_KINDS),
  startedAtUtc: DateTime,
  startNote: NullableString,
  dueAtUtc: DateTime,
  state: literals(CLOCK_STATES),
  overdue: Type.Boolean({
    description: 'Running and past its due time (the sweep marks it missed)',
  }),
  dueAlertedAtUtc: NullableDateTime,
  missedAtUtc: NullableDateTime,
  submission: Type.Union([
    Type.Object({
      submittedAtUtc: DateTime,
      reference: Type.String(),
      note: NullableString,
      submittedByTokenId: NullableUuid,
    }),
    Type.Null(),
  ]),
});

export const ClockList = ItemsList(Clock);

export const DueClocksQuery = Type.Object({
  withinHours: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 8784,
      default: 24,
      description: 'Running clocks due within this many hours from now (overdue ones included)',
    }),
  ),
});

export const DueClocks = Type.Object({
  items: Type.Array(Clock),
  withinHours: Type.Integer(),
  untilUtc: DateTime,
});

export const SubmissionRequest = Type.Object(
  {
    reference: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'The reference the Single Reporting Platform gave, or your own',
    }),
    note: Type.Optional(Type.String({ maxLength: 5000 })),
    submittedAtUtc: Type.Optional(
      Type.String({ format: 'date-time', description: 'Default: now; not in the future' }),
    ),
  },
  { additionalProperties: false },
);

export const SubmissionResult = Type.Object({
  clock: Clock,
  startedClocks: Type.Array(Clock),
});

export const CorrectiveMeasureRequest = Type.Object(
  {
    vulnerabilityId: Uuid,
    note: Type.String({ minLength: 1, maxLength: 5000, description: 'What the measure is' }),
    availableAtUtc: Type.Optional(
      Type.String({ format: 'date-time', description: 'Default: now; not in the future' }),
    ),
  },
  { additionalProperties: false },
);

export const Incident = Type.Object({
  incidentId: Uuid,
  productId: Uuid,
  title: Type.String(),
  description: Type.String(),
  severeBecause: Type.Array(literals(SEVERE_BECAUSE)),
  awareAtUtc: DateTime,
  recordedAtUtc: DateTime,
  recordedByTokenId: NullableUuid,
  clocks: Type.Array(Clock),
});

export const IncidentPage = TotalEstimatePage(Incident);

export const RecordIncidentRequest = Type.Object(
  {
    productId: Uuid,
    title: Type.String({ minLength: 1, maxLength: 300 }),
    description: Type.Optional(Type.String({ maxLength: 20000 })),
    severeBecause: Type.Array(literals(SEVERE_BECAUSE), {
      minItems: 1,
      maxItems: 2,
      description:
        'Art. 14(5): data_or_functions (a: availability, authenticity, integrity or confidentiality of sensitive data or functions), malicious_code (b)',
    }),
    awareAtUtc: Type.Optional(
      Type.String({ format: 'date-time', description: 'When you became aware; default now' }),
    ),
  },
  { additionalProperties: false },
);

export const IncidentListQuery = Type.Object({
  ...TakeSkipQuery,
  productId: Type.Optional(Uuid),
});

export const ReportFormatQuery = Type.Object({
  format: Type.Optional(
    Type.String({
      description:
        'json, markdown, pdf or csv: the generated document (409 until ready); absent: the pack status',
    }),
  ),
});

export const PackStatus = Type.Object({
  packId: Uuid,
  productId: Uuid,
  state: literals(PACK_STATES),
  error: NullableString,
  requestedByTokenId: NullableUuid,
  createdAtUtc: DateTime,
  startedAtUtc: NullableDateTime,
  finishedAtUtc: NullableDateTime,
  formats: Type.Array(Type.String(), { description: 'The formats GET can return once ready' }),
});

export const PackPage = TotalEstimatePage(PackStatus);

export const GeneratePackRequest = Type.Object(
  { productId: Uuid },
  { additionalProperties: false },
);

export const PackListQuery = Type.Object({
  ...TakeSkipQuery,
  productId: Type.Optional(Uuid),
});
