import { type Kysely, sql } from 'kysely';
import { PLAN_DEFINITIONS, type Plan } from '../../core/plans';
import type { Principal } from '../../core/principal';
import { badRequest, conflict, notFound } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import type { PaidPlan } from './events';
import { currentPlan, effectivePlan, planReason } from './state';

/** The tenant's billing state (GET /api/v1/billing/subscription). */
export async function subscriptionView(db: Kysely<DB>, now = new Date()) {
  // One after the other: the request's scope is one connection.
  const account = await db.selectFrom('billing_accounts').selectAll().executeTakeFirst();
  const plan = await currentPlan(db);
  const pending = await pendingChange(db);
  const unpaid = await unpaidInvoices(db);
  return {
    plan,
    planReason: account ? planReason(account, now) : 'not_billed',
    status: account?.status ?? 'none',
    subscribedPlan: account?.subscribed_plan ?? null,
    customerId: account?.customer_id ?? null,
    subscriptionId: account?.subscription_id ?? null,
    trialEndsAtUtc: account?.trial_ends_at?.toISOString() ?? null,
    cancelledAtUtc: account?.cancelled_at?.toISOString() ?? null,
    graceEndsAtUtc: account?.grace_ends_at?.toISOString() ?? null,
    planAfterGrace: account?.grace_ends_at
      ? effectivePlan(account, new Date(account.grace_ends_at.getTime() + 1))
      : null,
    unpaidInvoices: unpaid,
    pendingPlanChange: pending ? presentChange(pending) : null,
    limits: PLAN_DEFINITIONS[plan].limits,
    features: [...PLAN_DEFINITIONS[plan].features],
  };
}

async function pendingChange(db: Kysely<DB>) {
  return db
    .selectFrom('billing_plan_changes')
    .selectAll()
    .where('state', '=', 'pending')
    .orderBy('requested_at', 'desc')
    .executeTakeFirst();
}

async function unpaidInvoices(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('billing_invoices')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', 'in', ['open', 'payment_failed'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

type ChangeRow = NonNullable<Awaited<ReturnType<typeof pendingChange>>>;

export function presentChange(row: ChangeRow) {
  return {
    requestId: row.id,
    fromPlan: row.from_plan,
    requestedPlan: row.requested_plan,
    state: row.state,
    requestedAtUtc: row.requested_at.toISOString(),
    resolvedAtUtc: row.resolved_at?.toISOString() ?? null,
  };
}

/** Why a change to `target` is forbidden now, or null when it may be requested. */
async function forbiddenReason(db: Kysely<DB>, from: Plan, target: PaidPlan) {
  if (from === target) return `The tenant is already on the ${target} plan.`;
  const unpaid = await unpaidInvoices(db);
  if (unpaid > 0) {
    return `The tenant has ${unpaid} unpaid invoice${unpaid === 1 ? '' : 's'}; the plan can change once ${unpaid === 1 ? 'it is' : 'they are'} paid.`;
  }
  const limit = PLAN_DEFINITIONS[target].limits.repositories;
  const counted = await db
    .selectFrom('repositories')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const used = Number(counted.n);
  if (used > limit) {
    return `The tenant has ${used} repositories; the ${target} plan allows ${limit}. Remove ${used - limit} before moving to it.`;
  }
  return null;
}

/**
 * An owner's request to move to another plan (POST /api/v1/billing/plan-change-requests): checked
 * against what the tenant uses and owes (409 saying why), recorded as pending (replacing an
 * earlier pending one), and fulfilled when the provider's subscription event for that plan
 * arrives; the plan itself only ever follows the provider.
 */
export async function requestPlanChange(
  db: Kysely<DB>,
  principal: Principal,
  target: PaidPlan,
): Promise<ChangeRow> {
  const from = await currentPlan(db);
  const reason = await forbiddenReason(db, from, target);
  if (reason) throw conflict(reason);
  await db
    .updateTable('billing_plan_changes')
    .set({ state: 'superseded', resolved_at: sql<Date>`now()` })
    .where('state', '=', 'pending')
    .execute();
  return db
    .insertInto('billing_plan_changes')
    .values({
      id: newId(),
      from_plan: from,
      requested_plan: target,
      state: 'pending',
      requested_by_token_id: principal.tokenId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type InvoiceRow = Awaited<ReturnType<typeof invoicePageRows>>[number];

function invoicePageRows(db: Kysely<DB>, after: InvoiceCursor | null, limit: number) {
  let query = db.selectFrom('billing_invoices').selectAll();
  if (after) {
    query = query.where((eb) =>
      eb(eb.refTuple('issued_at', 'id'), '<', eb.tuple(after.issuedAt, after.id)),
    );
  }
  return query.orderBy('issued_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

interface InvoiceCursor {
  issuedAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The opaque cursor: the last item's position in the keyset (issued time, id). */
export function encodeCursor(row: { issued_at: Date; id: string }): string {
  return Buffer.from(JSON.stringify([row.issued_at.toISOString(), row.id])).toString('base64url');
}

function decodeCursor(cursor: string): InvoiceCursor {
  const invalid = () =>
    badRequest('The cursor is not one this list returned.', { cursor: ['is invalid'] });
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalid();
  const [time, id] = value;
  const issuedAt = typeof time === 'string' ? new Date(time) : new Date(Number.NaN);
  if (Number.isNaN(issuedAt.getTime()) || typeof id !== 'string' || !UUID.test(id)) throw invalid();
  return { issuedAt, id };
}

/**
 * Keyset paging, newest first (the contract's hasMore + nextCursor): a page starts strictly after
 * the cursor's (issued time, id), so invoices inserted meanwhile never shift, repeat or hide the
 * rows of later pages.
 */
export async function listInvoices(db: Kysely<DB>, cursor: string | undefined, take: number) {
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = await invoicePageRows(db, after, take + 1);
  const hasMore = rows.length > take;
  const items = rows.slice(0, take);
  const last = items[items.length - 1];
  return { items, hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null };
}

export async function getInvoice(db: Kysely<DB>, invoiceId: string): Promise<InvoiceRow> {
  const row = await db
    .selectFrom('billing_invoices')
    .selectAll()
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  if (!row) throw notFound('The invoice');
  return row;
}

export function presentInvoice(row: InvoiceRow) {
  return {
    invoiceId: row.id,
    providerInvoiceId: row.provider_invoice_id,
    number: row.number,
    status: row.status,
    currency: row.currency,
    amountDue: Number(row.amount_due),
    amountPaid: Number(row.amount_paid),
    periodStartUtc: row.period_start?.toISOString() ?? null,
    periodEndUtc: row.period_end?.toISOString() ?? null,
    issuedAtUtc: row.issued_at.toISOString(),
    dueAtUtc: row.due_at?.toISOString() ?? null,
    paidAtUtc: row.paid_at?.toISOString() ?? null,
    failedAttempts: row.failed_attempts,
    lastFailedAtUtc: row.last_failed_at?.toISOString() ?? null,
    updatedAtUtc: row.updated_at.toISOString(),
  };
}
