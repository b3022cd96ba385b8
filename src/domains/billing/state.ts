import type { Kysely, Selectable } from 'kysely';
import { isPlan, type Plan } from '../../core/plans';
import type { DB } from '../../db/schema';

/**
 * A tenant's plan as its billing state makes it (docs/billing.md#state): what the subscription
 * pays for, unless it was cancelled or an unpaid invoice's grace period ran out, when the tenant
 * falls back to FALLBACK_PLAN. Data is never deleted: only features and limits change.
 */
export const FALLBACK_PLAN: Plan = 'free';

export type Account = Selectable<DB['billing_accounts']>;

export function effectivePlan(account: Account, now: Date): Plan {
  if (account.status === 'cancelled') return FALLBACK_PLAN;
  if (account.grace_ends_at && account.grace_ends_at.getTime() <= now.getTime()) {
    return FALLBACK_PLAN;
  }
  return isPlan(account.subscribed_plan) ? account.subscribed_plan : FALLBACK_PLAN;
}

/** Why the plan is what it is, for the subscription view and the audit entry. */
export function planReason(account: Account, now: Date): string {
  if (account.status === 'cancelled') return 'subscription_cancelled';
  if (account.grace_ends_at && account.grace_ends_at.getTime() <= now.getTime()) {
    return 'grace_period_ended';
  }
  return 'subscription';
}

/**
 * Whether an event at (`at`, `id`) comes after the last one applied: the provider's event time
 * orders events, the event id breaks ties, so late and reordered deliveries never move state back.
 */
export function isNewer(
  event: { occurredAt: Date; id: string },
  last: { at: Date | null; id: string | null },
): boolean {
  if (!last.at) return true;
  const difference = event.occurredAt.getTime() - last.at.getTime();
  if (difference !== 0) return difference > 0;
  return last.id === null || event.id > last.id;
}

/** The tenant's stored plan (the token lookup reads it on every request: no cache to clear). */
export async function currentPlan(db: Kysely<DB>): Promise<Plan> {
  const row = await db.selectFrom('tenants').select('plan').executeTakeFirstOrThrow();
  return isPlan(row.plan) ? row.plan : FALLBACK_PLAN;
}

/** Sets the tenant's plan when it differs; returns the change, or null. */
export async function settlePlan(
  db: Kysely<DB>,
  tenantId: string,
  account: Account,
  now: Date,
): Promise<{ from: Plan; to: Plan; reason: string } | null> {
  const from = await currentPlan(db);
  const to = effectivePlan(account, now);
  if (from === to) return null;
  await db.updateTable('tenants').set({ plan: to }).where('id', '=', tenantId).execute();
  return { from, to, reason: planReason(account, now) };
}
