import { Type } from 'typebox';
import { FEATURES, PLANS } from '../../core/plans';
import { DateTime, NullableDateTime, NullableString, Uuid } from '../../http/schemas';
import { INT32_MAX } from '../../http/validators';
import { PAID_PLANS } from './events';
import { INVOICE_STATUSES, SUBSCRIPTION_STATUSES } from './tables';

export const BILLING_TAG = 'Billing';

export const Accepted = Type.Object({
  accepted: Type.Literal(true),
  eventId: Type.String({ description: "The provider's event id" }),
  outcome: Type.String({
    description:
      'applied, stale (a later event already moved this state), ignored (a type the service does not act on), duplicate (a replay: nothing changed) or unmatched (no tenant known for it)',
  }),
});

export const Invoice = Type.Object({
  invoiceId: Uuid,
  providerInvoiceId: Type.String(),
  number: NullableString,
  status: Type.String({ description: INVOICE_STATUSES.join(', ') }),
  currency: Type.String({ description: 'ISO 4217, upper case' }),
  amountDue: Type.Integer({ description: 'Minor units (cents)' }),
  amountPaid: Type.Integer({ description: 'Minor units (cents)' }),
  periodStartUtc: NullableDateTime,
  periodEndUtc: NullableDateTime,
  issuedAtUtc: DateTime,
  dueAtUtc: NullableDateTime,
  paidAtUtc: NullableDateTime,
  failedAttempts: Type.Integer(),
  lastFailedAtUtc: NullableDateTime,
  updatedAtUtc: DateTime,
});

export const InvoicePage = Type.Object({
  items: Type.Array(Invoice),
  take: Type.Integer({ description: 'Page size applied' }),
  hasMore: Type.Boolean(),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last page',
  }),
});

export const InvoiceListQuery = Type.Object({
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'nextCursor of the previous page' }),
  ),
  take: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: INT32_MAX,
      description: 'Page size (default 50, clamped to 200)',
    }),
  ),
});

export const InvoiceParam = Type.Object({ invoiceId: Uuid });

export const PlanChangeRequest = Type.Object(
  {
    plan: Type.Union(
      PAID_PLANS.map((plan) => Type.Literal(plan)),
      { description: PAID_PLANS.join(', ') },
    ),
  },
  { additionalProperties: false },
);

export const PlanChange = Type.Object({
  requestId: Uuid,
  fromPlan: Type.String(),
  requestedPlan: Type.String(),
  state: Type.String({
    description: 'pending, fulfilled (the provider confirmed it) or superseded',
  }),
  requestedAtUtc: DateTime,
  resolvedAtUtc: NullableDateTime,
});

const Limits = Type.Object({
  repositories: Type.Integer(),
  tenantRequestsPerMinute: Type.Union([Type.Integer(), Type.Null()]),
  tokenRequestsPerMinute: Type.Union([Type.Integer(), Type.Null()]),
});

export const Subscription = Type.Object({
  plan: Type.String({ description: `The tenant's plan now: ${PLANS.join(', ')}` }),
  planReason: Type.String({
    description:
      'subscription, subscription_cancelled, grace_period_ended, or not_billed (no provider customer)',
  }),
  status: Type.String({ description: SUBSCRIPTION_STATUSES.join(', ') }),
  subscribedPlan: NullableString,
  customerId: NullableString,
  subscriptionId: NullableString,
  trialEndsAtUtc: NullableDateTime,
  cancelledAtUtc: NullableDateTime,
  graceEndsAtUtc: NullableDateTime,
  planAfterGrace: NullableString,
  unpaidInvoices: Type.Integer(),
  pendingPlanChange: Type.Union([PlanChange, Type.Null()]),
  limits: Limits,
  features: Type.Array(Type.String({ description: Object.keys(FEATURES).join(', ') })),
});

export const SecretRequest = Type.Object(
  { secret: Type.String({ minLength: 16, maxLength: 512 }) },
  { additionalProperties: false },
);

export const SecretSummary = Type.Object({
  secretId: Uuid,
  fingerprint: Type.String({ description: 'First 12 hex digits of SHA-256 of the secret' }),
  createdAtUtc: DateTime,
});

export const SecretParam = Type.Object({ secretId: Uuid });
