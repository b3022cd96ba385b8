import { type Kysely, sql } from 'kysely';
import { isPlan } from '../../core/plans';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import type { BillingEvent, ProviderInvoice } from './events';
import { type Account, FALLBACK_PLAN, isNewer, settlePlan } from './state';
import type { BillingEventOutcome, InvoiceStatus } from './tables';

/**
 * One verified event applied to its tenant, inside that tenant's scoped transaction
 * (docs/billing.md#state): recorded once by its id, then the subscription or invoice it names
 * moves forward (never back: see isNewer), then the tenant's plan follows.
 */
export interface ApplyContext {
  tenantId: string;
  graceDays: number;
  now: Date;
}

export interface Applied {
  /** `duplicate`: the event id was already recorded; nothing changed. */
  outcome: BillingEventOutcome | 'duplicate';
  eventRowId: string | null;
  plan: { from: string; to: string; reason: string } | null;
}

async function recordEvent(db: Kysely<DB>, event: BillingEvent, payload: string) {
  const row = await db
    .insertInto('billing_events')
    .values({
      id: newId(),
      event_id: event.id,
      type: event.providerType,
      occurred_at: event.occurredAt,
      outcome: 'ignored',
      payload,
    })
    .onConflict((conflict) => conflict.columns(['tenant_id', 'event_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The tenant's account, locked: every event of one tenant applies one after the other. */
async function lockedAccount(db: Kysely<DB>, event: BillingEvent): Promise<Account> {
  const existing = await db
    .selectFrom('billing_accounts')
    .selectAll()
    .forUpdate()
    .executeTakeFirst();
  if (existing) return existing;
  const tenant = await db.selectFrom('tenants').select('plan').executeTakeFirstOrThrow();
  await db
    .insertInto('billing_accounts')
    .values({
      customer_id: event.customerId,
      status: 'none',
      // Before any subscription event the tenant keeps the plan it has.
      subscribed_plan: isPlan(tenant.plan) ? tenant.plan : FALLBACK_PLAN,
    })
    .onConflict((conflict) => conflict.column('tenant_id').doNothing())
    .execute();
  return db.selectFrom('billing_accounts').selectAll().forUpdate().executeTakeFirstOrThrow();
}

async function updateAccount(
  db: Kysely<DB>,
  changes: Partial<Omit<Account, 'tenant_id' | 'created_at'>>,
): Promise<Account> {
  return db
    .updateTable('billing_accounts')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function applySubscription(
  db: Kysely<DB>,
  account: Account,
  event: BillingEvent,
): Promise<{ outcome: BillingEventOutcome; account: Account }> {
  const subscription = event.subscription;
  if (
    !subscription ||
    !isNewer(event, { at: account.state_event_at, id: account.state_event_id })
  ) {
    return { outcome: 'stale', account };
  }
  const stamp = { state_event_at: event.occurredAt, state_event_id: event.id };
  if (event.type === 'subscription.cancelled') {
    const next = await updateAccount(db, {
      ...stamp,
      subscription_id: subscription.id,
      status: 'cancelled',
      cancelled_at: event.occurredAt,
    });
    return { outcome: 'applied', account: next };
  }
  if (event.type === 'subscription.trial_ending') {
    const next = await updateAccount(db, {
      ...stamp,
      trial_ends_at: subscription.trialEndsAt ? new Date(subscription.trialEndsAt) : null,
    });
    return { outcome: 'applied', account: next };
  }
  const plan = subscription.plan ?? account.subscribed_plan;
  const status = subscription.status ?? 'active';
  const next = await updateAccount(db, {
    ...stamp,
    subscription_id: subscription.id,
    status,
    subscribed_plan: plan,
    trial_ends_at:
      status === 'trialing' && subscription.trialEndsAt ? new Date(subscription.trialEndsAt) : null,
    cancelled_at: null,
  });
  // An owner's pending request for this plan is what the provider just confirmed.
  await db
    .updateTable('billing_plan_changes')
    .set({ state: 'fulfilled', resolved_at: sql<Date>`now()` })
    .where('state', '=', 'pending')
    .where('requested_plan', '=', plan)
    .execute();
  return { outcome: 'applied', account: next };
}

const INVOICE_STATUS: Record<string, InvoiceStatus> = {
  'invoice.finalized': 'open',
  'invoice.paid': 'paid',
  'invoice.payment_failed': 'payment_failed',
};

const date = (value: string | null | undefined) => (value ? new Date(value) : null);

function invoiceFields(invoice: ProviderInvoice) {
  return {
    number: invoice.number ?? null,
    currency: invoice.currency.toUpperCase(),
    amount_due: invoice.amountDue,
    period_start: date(invoice.periodStart),
    period_end: date(invoice.periodEnd),
    issued_at: new Date(invoice.issuedAt),
    due_at: date(invoice.dueAt),
  };
}

/** Inserts or moves the invoice forward; `stale` when a later event already moved it. */
async function upsertInvoice(db: Kysely<DB>, event: BillingEvent): Promise<BillingEventOutcome> {
  const invoice = event.invoice;
  const status = INVOICE_STATUS[event.type];
  if (!invoice || !status) return 'ignored';
  const existing = await db
    .selectFrom('billing_invoices')
    .select(['id', 'state_event_at', 'state_event_id', 'failed_attempts', 'amount_paid'])
    .where('provider_invoice_id', '=', invoice.id)
    .forUpdate()
    .executeTakeFirst();
  const failed = status === 'payment_failed';
  const paid = status === 'paid';
  const values = {
    ...invoiceFields(invoice),
    status,
    amount_paid: invoice.amountPaid ?? (paid ? invoice.amountDue : 0),
    paid_at: paid ? event.occurredAt : null,
    state_event_at: event.occurredAt,
    state_event_id: event.id,
  };
  if (!existing) {
    await db
      .insertInto('billing_invoices')
      .values({
        id: newId(),
        provider_invoice_id: invoice.id,
        ...values,
        failed_attempts: failed ? 1 : 0,
        last_failed_at: failed ? event.occurredAt : null,
      })
      .execute();
    return 'applied';
  }
  if (!isNewer(event, { at: existing.state_event_at, id: existing.state_event_id })) return 'stale';
  await db
    .updateTable('billing_invoices')
    .set({
      ...values,
      updated_at: sql<Date>`now()`,
      ...(failed
        ? { failed_attempts: existing.failed_attempts + 1, last_failed_at: event.occurredAt }
        : {}),
    })
    .where('id', '=', existing.id)
    .execute();
  return 'applied';
}

/**
 * The grace period follows the unpaid invoices: it starts at the first failed payment of a run
 * of them and lasts `graceDays`; it ends (and the plan returns) when none is left unpaid.
 */
async function settleGrace(db: Kysely<DB>, account: Account, graceDays: number) {
  const failed = await db
    .selectFrom('billing_invoices')
    .select((eb) => eb.fn.min('last_failed_at').as('first'))
    .where('status', '=', 'payment_failed')
    .executeTakeFirstOrThrow();
  const first = failed.first ? new Date(failed.first) : null;
  if (!first) {
    return account.grace_ends_at ? updateAccount(db, { grace_ends_at: null }) : account;
  }
  if (account.grace_ends_at) return account;
  return updateAccount(db, {
    grace_ends_at: new Date(first.getTime() + graceDays * 86_400_000),
  });
}

export async function applyBillingEvent(
  db: Kysely<DB>,
  event: BillingEvent,
  payload: string,
  context: ApplyContext,
): Promise<Applied> {
  const eventRowId = await recordEvent(db, event, payload);
  if (!eventRowId) return { outcome: 'duplicate', eventRowId: null, plan: null };
  let account = await lockedAccount(db, event);
  let outcome: BillingEventOutcome = 'ignored';
  if (event.type.startsWith('subscription.')) {
    ({ outcome, account } = await applySubscription(db, account, event));
  } else if (event.type.startsWith('invoice.')) {
    outcome = await upsertInvoice(db, event);
    if (outcome === 'applied') account = await settleGrace(db, account, context.graceDays);
  }
  await db.updateTable('billing_events').set({ outcome }).where('id', '=', eventRowId).execute();
  const plan = await settlePlan(db, context.tenantId, account, context.now);
  return { outcome, eventRowId, plan };
}
