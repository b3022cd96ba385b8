import { Type } from 'typebox';
import { TakeSkipQuery } from '../../http/query';
import {
  DateTime,
  NullableDateTime,
  NullableString,
  TotalEstimatePage,
  TotalList,
  Uuid,
} from '../../http/schemas';
import { DELIVERY_STATUSES } from '../outbound-deliveries/tables';

export const CreateWebhookBody = Type.Object(
  {
    name: Type.String({ maxLength: 1000, description: '1 to 200 characters' }),
    url: Type.String({
      maxLength: 4096,
      description:
        'Public https URL: its name is resolved and internal addresses are refused (422 on url)',
    }),
  },
  { additionalProperties: false },
);

export const UpdateIntegrationBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    url: Type.Optional(Type.String({ maxLength: 4096 })),
    enabled: Type.Optional(
      Type.Boolean({ description: 'false disables (pending deliveries are cancelled)' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Integration = Type.Object({
  integrationId: Uuid,
  kind: Type.String({ description: 'webhook' }),
  name: Type.String(),
  url: Type.String(),
  status: Type.String({ description: 'active or disabled' }),
  disabledReason: NullableString,
  disabledAtUtc: NullableDateTime,
  lastSuccessAtUtc: NullableDateTime,
  lastFailureAtUtc: NullableDateTime,
  createdAtUtc: DateTime,
  updatedAtUtc: DateTime,
});

export const IntegrationWithSecret = Type.Object({
  ...Integration.properties,
  secret: Type.String({
    description:
      'The Standard Webhooks signing secret (whsec_…), shown only in this response: store it now',
  }),
});

export const IntegrationList = TotalList(Integration);

const Attempt = Type.Object({
  attempt: Type.Integer(),
  startedAtUtc: DateTime,
  durationMs: Type.Integer(),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  outcome: Type.String({ description: 'succeeded, failed or gone (410)' }),
  error: NullableString,
});

export const Delivery = Type.Object({
  deliveryId: Uuid,
  eventType: Type.String(),
  status: Type.String({ description: DELIVERY_STATUSES.join(', ') }),
  attemptCount: Type.Integer(),
  nextAttemptAtUtc: NullableDateTime,
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: NullableString,
  createdAtUtc: DateTime,
  finishedAtUtc: NullableDateTime,
  attempts: Type.Array(Attempt),
});

export const DeliveryPage = TotalEstimatePage(Delivery);

export const DeliveryListQuery = Type.Object({ ...TakeSkipQuery });
