import type { Generated, JSONColumnType } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

/** Subscription state from subscription events only (docs/billing.md#state). */
export const SUBSCRIPTION_STATUSES = ['none', 'trialing', 'active', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const INVOICE_STATUSES = ['open', 'paid', 'payment_failed'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export type BillingEventOutcome = 'applied' | 'stale' | 'ignored';
export type PlanChangeState = 'pending' | 'fulfilled' | 'superseded';

/** System table: the operator's signing secrets, sealed. */
export interface BillingProviderSecretTable {
  id: string;
  secret_sealed: string;
  fingerprint: string;
  created_at: Generated<Date>;
}

/** System table: events naming no known tenant. */
export interface BillingUnmatchedEventTable {
  event_id: string;
  type: string;
  customer_id: string | null;
  occurred_at: Date;
  received_at: Generated<Date>;
  reason: string;
  payload: JSONColumnType<object, string, string>;
}

export interface BillingAccountTable {
  tenant_id: TenantColumn;
  customer_id: string;
  subscription_id: string | null;
  status: SubscriptionStatus;
  subscribed_plan: string;
  trial_ends_at: Date | null;
  cancelled_at: Date | null;
  grace_ends_at: Date | null;
  state_event_at: Date | null;
  state_event_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface BillingEventTable {
  tenant_id: TenantColumn;
  id: string;
  event_id: string;
  type: string;
  occurred_at: Date;
  received_at: Generated<Date>;
  outcome: BillingEventOutcome;
  payload: JSONColumnType<object, string, string>;
}

export interface BillingInvoiceTable {
  tenant_id: TenantColumn;
  id: string;
  provider_invoice_id: string;
  number: string | null;
  status: InvoiceStatus;
  currency: string;
  /** Minor units (cents); bigint arrives as a string. */
  amount_due: string | number;
  amount_paid: Generated<string | number>;
  period_start: Date | null;
  period_end: Date | null;
  issued_at: Date;
  due_at: Date | null;
  paid_at: Date | null;
  failed_attempts: Generated<number>;
  last_failed_at: Date | null;
  state_event_at: Date;
  state_event_id: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface BillingPlanChangeTable {
  tenant_id: TenantColumn;
  id: string;
  from_plan: string;
  requested_plan: string;
  state: PlanChangeState;
  requested_by_token_id: string | null;
  requested_at: Generated<Date>;
  resolved_at: Date | null;
}

export interface BillingTables {
  billing_provider_secrets: BillingProviderSecretTable;
  billing_unmatched_events: BillingUnmatchedEventTable;
  billing_accounts: BillingAccountTable;
  billing_events: BillingEventTable;
  billing_invoices: BillingInvoiceTable;
  billing_plan_changes: BillingPlanChangeTable;
}
