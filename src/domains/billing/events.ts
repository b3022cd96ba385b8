import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { badRequest, type FieldErrors } from '../../core/problem';
import { textErrorsIn } from '../../http/edge-rules';

/**
 * The provider's event body (docs/billing.md#events), read only after its signature held. Fields
 * the service does not use are allowed and kept in the stored payload; a known event type without
 * what it needs is a 400 (the provider will not fix it by retrying, but its dashboard shows it).
 */
export const BILLING_EVENT_TYPES = [
  'subscription.created',
  'subscription.updated',
  'subscription.cancelled',
  'subscription.trial_ending',
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_failed',
] as const;
export type BillingEventType = (typeof BILLING_EVENT_TYPES)[number];

/** The plans a subscription can pay for (`trial` is the demo tenants' plan, never sold). */
export const PAID_PLANS = ['free', 'team', 'business', 'enterprise'] as const;
export type PaidPlan = (typeof PAID_PLANS)[number];

const ProviderId = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_.:\\-]+$' });
const When = Type.String({ format: 'date-time', maxLength: 40 });
const OptionalWhen = Type.Optional(Type.Union([When, Type.Null()]));
const Amount = Type.Integer({ minimum: 0, maximum: 1e13 });

const Subscription = Type.Object({
  id: ProviderId,
  plan: Type.Optional(Type.Union(PAID_PLANS.map((plan) => Type.Literal(plan)))),
  status: Type.Optional(Type.Union([Type.Literal('trialing'), Type.Literal('active')])),
  trialEndsAt: OptionalWhen,
});

const Invoice = Type.Object({
  id: ProviderId,
  number: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  currency: Type.String({ pattern: '^[A-Za-z]{3}$' }),
  amountDue: Amount,
  amountPaid: Type.Optional(Amount),
  periodStart: OptionalWhen,
  periodEnd: OptionalWhen,
  issuedAt: When,
  dueAt: OptionalWhen,
});

const Envelope = Type.Object({
  id: ProviderId,
  type: Type.String({ minLength: 1, maxLength: 100 }),
  created: When,
  data: Type.Object({
    customerId: ProviderId,
    tenantId: Type.Optional(Type.String({ format: 'uuid' })),
    subscription: Type.Optional(Subscription),
    invoice: Type.Optional(Invoice),
  }),
});

export type ProviderSubscription = Static<typeof Subscription>;
export type ProviderInvoice = Static<typeof Invoice>;

export interface BillingEvent {
  id: string;
  /** A known type, or `other` (recorded, changes nothing). */
  type: BillingEventType | 'other';
  providerType: string;
  occurredAt: Date;
  customerId: string;
  tenantId: string | null;
  subscription: ProviderSubscription | null;
  invoice: ProviderInvoice | null;
}

const envelope = Compile(Envelope);

function fieldErrors(value: unknown): FieldErrors {
  const errors: FieldErrors = {};
  const add = (path: string, message: string) => {
    const key = path === '' ? 'body' : `body.${path}`;
    if (!errors[key]) errors[key] = [message];
  };
  for (const error of envelope.Errors(value)) {
    const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const missing = (error.params as { requiredProperties?: unknown }).requiredProperties;
    if (error.keyword === 'required' && Array.isArray(missing)) {
      // Named by the missing field itself, as the request validation does.
      for (const name of missing)
        add(path ? `${path}.${String(name)}` : String(name), 'is required');
    } else {
      add(path, error.message);
    }
  }
  return errors;
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('The delivery body is not JSON.');
  }
}

/** Parses and checks a verified delivery's body; a 400 problem naming the fields otherwise. */
export function parseBillingEvent(raw: Buffer): BillingEvent {
  const body = parseJson(raw);
  if (!envelope.Check(body)) {
    throw badRequest('The delivery body is not a billing event.', fieldErrors(body));
  }
  const textErrors = textErrorsIn(body, 'body');
  if (Object.keys(textErrors).length > 0) {
    throw badRequest('The delivery contains text that cannot be stored.', textErrors);
  }
  const known = (BILLING_EVENT_TYPES as readonly string[]).includes(body.type);
  const type = known ? (body.type as BillingEventType) : 'other';
  const event: BillingEvent = {
    id: body.id,
    type,
    providerType: body.type,
    occurredAt: new Date(body.created),
    customerId: body.data.customerId,
    tenantId: body.data.tenantId?.toLowerCase() ?? null,
    subscription: body.data.subscription ?? null,
    invoice: body.data.invoice ?? null,
  };
  requireParts(event);
  return event;
}

/** What each known type needs beyond the envelope. */
function requireParts(event: BillingEvent): void {
  if (event.type.startsWith('subscription.')) {
    if (!event.subscription) {
      throw badRequest(`A ${event.type} event needs data.subscription.`, {
        'body.data.subscription': ['is required for this event type'],
      });
    }
    if (
      (event.type === 'subscription.created' || event.type === 'subscription.updated') &&
      !event.subscription.plan
    ) {
      throw badRequest(`A ${event.type} event needs data.subscription.plan.`, {
        'body.data.subscription.plan': ['is required for this event type'],
      });
    }
  }
  if (event.type.startsWith('invoice.') && !event.invoice) {
    throw badRequest(`A ${event.type} event needs data.invoice.`, {
      'body.data.invoice': ['is required for this event type'],
    });
  }
}
