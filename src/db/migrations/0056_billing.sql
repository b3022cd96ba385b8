-- Billing and plans (docs/billing.md): the billing provider's signed events, each tenant's
-- subscription state, its invoices and its owners' plan-change requests.

-- The operator's provider signing secrets, sealed with the master key (several during a
-- rotation). Service-wide, not tenant data: no tenant column, system connection only.
CREATE TABLE billing_provider_secrets (
  id uuid PRIMARY KEY,
  secret_sealed text NOT NULL,
  -- The first 12 hex digits of SHA-256 of the secret: names it in listings, reveals nothing.
  fingerprint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Events that named no tenant the service knows: kept (by their id, once) for the operator.
CREATE TABLE billing_unmatched_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  customer_id text,
  occurred_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  reason text NOT NULL,
  payload jsonb NOT NULL
);

-- One per tenant with a provider customer: the customer id maps every later event to it.
CREATE TABLE billing_accounts (
  tenant_id uuid PRIMARY KEY DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  customer_id text NOT NULL UNIQUE,
  subscription_id text,
  -- 'none' | 'trialing' | 'active' | 'cancelled' (from subscription events only)
  status text NOT NULL,
  -- The plan the subscription pays for; the tenant's plan follows from it (effectivePlan).
  subscribed_plan text NOT NULL,
  trial_ends_at timestamptz,
  cancelled_at timestamptz,
  -- Set while an invoice's payment has failed: after it the plan falls back.
  grace_ends_at timestamptz,
  -- The provider's time and id of the last subscription event applied (ordering).
  state_event_at timestamptz,
  state_event_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Every event applied to (or refused as stale by) a tenant; the id makes replays no-ops.
CREATE TABLE billing_events (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  event_id text NOT NULL UNIQUE,
  type text NOT NULL,
  occurred_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  -- 'applied' | 'stale' | 'ignored'
  outcome text NOT NULL,
  payload jsonb NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX billing_events_recent ON billing_events (tenant_id, occurred_at DESC);

CREATE TABLE billing_invoices (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  provider_invoice_id text NOT NULL,
  number text,
  -- 'open' | 'paid' | 'payment_failed'
  status text NOT NULL,
  currency text NOT NULL,
  amount_due bigint NOT NULL,
  amount_paid bigint NOT NULL DEFAULT 0,
  period_start timestamptz,
  period_end timestamptz,
  issued_at timestamptz NOT NULL,
  due_at timestamptz,
  paid_at timestamptz,
  failed_attempts integer NOT NULL DEFAULT 0,
  last_failed_at timestamptz,
  state_event_at timestamptz NOT NULL,
  state_event_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, provider_invoice_id)
);
-- The keyset of the invoice list: newest first, the id breaking ties.
CREATE INDEX billing_invoices_newest ON billing_invoices (tenant_id, issued_at DESC, id DESC);

CREATE TABLE billing_plan_changes (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  from_plan text NOT NULL,
  requested_plan text NOT NULL,
  -- 'pending' | 'fulfilled' | 'superseded'
  state text NOT NULL,
  requested_by_token_id uuid,
  requested_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX billing_plan_changes_pending ON billing_plan_changes (tenant_id) WHERE state = 'pending';

ALTER TABLE billing_accounts ENABLE ROW LEVEL SECURITY;
ALTER TABLE billing_accounts FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON billing_accounts
  USING (tenant_id = dw_current_tenant()) WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON billing_accounts TO CURRENT_USER USING (true) WITH CHECK (true);

ALTER TABLE billing_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE billing_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON billing_events
  USING (tenant_id = dw_current_tenant()) WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON billing_events TO CURRENT_USER USING (true) WITH CHECK (true);

ALTER TABLE billing_invoices ENABLE ROW LEVEL SECURITY;
ALTER TABLE billing_invoices FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON billing_invoices
  USING (tenant_id = dw_current_tenant()) WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON billing_invoices TO CURRENT_USER USING (true) WITH CHECK (true);

ALTER TABLE billing_plan_changes ENABLE ROW LEVEL SECURITY;
ALTER TABLE billing_plan_changes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON billing_plan_changes
  USING (tenant_id = dw_current_tenant()) WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON billing_plan_changes TO CURRENT_USER USING (true) WITH CHECK (true);

GRANT SELECT, INSERT, UPDATE, DELETE
  ON billing_accounts, billing_events, billing_invoices, billing_plan_changes TO driftwatch_app;
