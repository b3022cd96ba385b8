-- Outbound webhook integrations (docs/integrations.md) and the shared outbound delivery log
-- every domain that posts to a user-given address uses (integrations now, status page webhook
-- subscriptions later): one row per event and target, one row per attempt.

CREATE TABLE integrations (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  -- 'webhook' (the one kind so far)
  kind text NOT NULL DEFAULT 'webhook',
  name text NOT NULL,
  url text NOT NULL,
  -- The Standard Webhooks signing secret (whsec_...), sealed with the secret box.
  secret_sealed text NOT NULL,
  -- 'active' | 'disabled'
  status text NOT NULL DEFAULT 'active',
  -- 'gone' (the receiver answered 410) | 'failing' (a delivery ran out of attempts) | 'manual'
  disabled_reason text,
  disabled_at timestamptz,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX integrations_listing ON integrations (tenant_id, created_at, id);

CREATE TABLE outbound_deliveries (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  -- Also the webhook-id header: the same on every attempt, so receivers can drop duplicates.
  id uuid NOT NULL,
  -- Who owns the target ('integration'), and its id in that owner's table.
  target_kind text NOT NULL,
  target_id uuid NOT NULL,
  event_type text NOT NULL,
  payload jsonb NOT NULL,
  -- 'pending' | 'succeeded' | 'failed' | 'cancelled'
  status text NOT NULL DEFAULT 'pending',
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  -- An attempt in flight holds the delivery until then; a worker killed mid-attempt lets go.
  lease_until timestamptz,
  last_status_code integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX outbound_deliveries_due ON outbound_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbound_deliveries_by_target
  ON outbound_deliveries (tenant_id, target_kind, target_id, created_at DESC, id DESC);

CREATE TABLE outbound_delivery_attempts (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  delivery_id uuid NOT NULL,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  -- The receiver's status, or null when none came (refused, unreachable, timed out).
  status_code integer,
  -- 'succeeded' | 'failed' | 'gone'
  outcome text NOT NULL,
  error text,
  PRIMARY KEY (tenant_id, delivery_id, attempt),
  FOREIGN KEY (tenant_id, delivery_id) REFERENCES outbound_deliveries (tenant_id, id) ON DELETE CASCADE
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['integrations', 'outbound_deliveries', 'outbound_delivery_attempts']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;
