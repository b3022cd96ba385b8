import { Type } from 'typebox';
import { DateTime, NullableDateTime, NullableString } from '../../http/schemas';
import {
  CHANGELOG_KINDS,
  COMPONENTS,
  INCIDENT_IMPACTS,
  INCIDENT_STATUSES,
  MEASURED_STATES,
  OVERRIDE_STATES,
} from './tables';

/** A string from a fixed list, typed as that union (enum in the document). */
const literals = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });

const STATES = [...MEASURED_STATES, 'maintenance'] as const;
export const ComponentStateSchema = literals(STATES);

export const PublicStatus = Type.Object({
  status: ComponentStateSchema,
  description: Type.String(),
  openIncidents: Type.Integer(),
  updatedAtUtc: DateTime,
  components: Type.Array(
    Type.Object({ componentId: Type.String(), name: Type.String(), state: ComponentStateSchema }),
  ),
});

export const Component = Type.Object({
  componentId: Type.String(),
  name: Type.String(),
  state: ComponentStateSchema,
  measuredState: literals(MEASURED_STATES),
  detail: Type.String(),
  overridden: Type.Boolean(),
  overrideReason: NullableString,
  overrideUntilUtc: NullableDateTime,
  changedAtUtc: DateTime,
  evaluatedAtUtc: DateTime,
});

const IncidentUpdate = Type.Object({
  updateId: Type.String({ format: 'uuid' }),
  status: literals(INCIDENT_STATUSES),
  body: Type.String(),
  createdAtUtc: DateTime,
});

export const Incident = Type.Object({
  incidentId: Type.String({ format: 'uuid' }),
  title: Type.String(),
  impact: literals(INCIDENT_IMPACTS),
  status: literals(INCIDENT_STATUSES),
  components: Type.Array(Type.String()),
  createdAtUtc: DateTime,
  updatedAtUtc: DateTime,
  resolvedAtUtc: NullableDateTime,
  updates: Type.Array(IncidentUpdate),
});

export const ChangelogEntry = Type.Object({
  entryId: Type.String({ format: 'uuid' }),
  kind: literals(CHANGELOG_KINDS),
  title: Type.String(),
  body: Type.String(),
  version: NullableString,
  publishedAtUtc: DateTime,
});

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });

export const CreateIncidentRequest = Type.Object(
  {
    title: Text(200),
    impact: literals(INCIDENT_IMPACTS),
    status: Type.Optional(literals(INCIDENT_STATUSES)),
    components: Type.Optional(
      Type.Array(literals(COMPONENTS), { maxItems: COMPONENTS.length, uniqueItems: true }),
    ),
    body: Text(10_000),
  },
  { additionalProperties: false },
);

export const IncidentUpdateRequest = Type.Object(
  { status: literals(INCIDENT_STATUSES), body: Text(10_000) },
  { additionalProperties: false },
);

export const CreateChangelogRequest = Type.Object(
  {
    kind: literals(CHANGELOG_KINDS),
    title: Text(200),
    body: Type.Optional(Type.String({ maxLength: 10_000 })),
    version: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    publishedAtUtc: Type.Optional(DateTime),
  },
  { additionalProperties: false },
);

export const OverrideRequest = Type.Object(
  {
    state: literals(OVERRIDE_STATES),
    reason: Text(500),
    untilUtc: Type.Optional(DateTime),
  },
  { additionalProperties: false },
);

export const ComponentParam = Type.Object({ componentId: literals(COMPONENTS) });
export const IncidentParam = Type.Object({ incidentId: Type.String({ format: 'uuid' }) });
export const Created = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const SubscribeRequest = Type.Object(
  { email: Type.String({ maxLength: 320, description: 'The address to notify (double opt-in)' }) },
  { additionalProperties: false },
);
export const SubscribeResponse = Type.Object({
  status: Type.Literal('pending-confirmation'),
  message: Type.String(),
});
export const TokenQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export const TokenAnswer = Type.Object({
  status: Type.Unsafe<'confirmed' | 'unsubscribed'>({
    type: 'string',
    enum: ['confirmed', 'unsubscribed'],
  }),
});
export const WebhookSubscriptionRequest = Type.Object(
  { url: Type.String({ maxLength: 4096, description: 'A public https URL' }) },
  { additionalProperties: false },
);
export const WebhookSubscriptionResponse = Type.Object({
  subscriptionId: Type.String({ format: 'uuid' }),
  url: Type.String(),
  secret: Type.String({ description: 'Standard Webhooks signing secret (whsec_…), shown once' }),
  unsubscribeToken: Type.String({ description: 'Shown once' }),
  unsubscribeUrl: Type.String(),
  createdAtUtc: DateTime,
});
export const OutboxMessage = Type.Object({
  messageId: Type.String({ format: 'uuid' }),
  recipient: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  state: Type.String(),
  attempts: Type.Integer(),
  lastError: NullableString,
  createdAtUtc: DateTime,
  sentAtUtc: NullableDateTime,
});
