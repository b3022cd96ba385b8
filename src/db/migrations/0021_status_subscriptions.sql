-- Status subscriptions (docs/status.md#subscriptions, docs/decisions/0007-system-owned-deliveries.md).

-- Webhook notifications to status subscribers go through the shared delivery module, but a status
-- subscriber belongs to no tenant: its deliveries are rows with no tenant. Row-level security
-- already hides them from every tenant scope (NULL = tenant is never true, and WITH CHECK refuses
-- a NULL from inside a scope); only the system connection reads and writes them.
ALTER TABLE outbound_delivery_attempts
  DROP CONSTRAINT outbound_delivery_attempts_tenant_id_delivery_id_fkey;
ALTER TABLE outbound_delivery_attempts DROP CONSTRAINT outbound_delivery_attempts_pkey;
ALTER TABLE outbound_deliveries DROP CONSTRAINT outbound_deliveries_pkey;
ALTER TABLE outbound_deliveries ALTER COLUMN tenant_id DROP NOT NULL;
ALTER TABLE outbound_delivery_attempts ALTER COLUMN tenant_id DROP NOT NULL;
ALTER TABLE outbound_deliveries ADD PRIMARY KEY (id);
ALTER TABLE outbound_delivery_attempts ADD PRIMARY KEY (delivery_id, attempt);
ALTER TABLE outbound_delivery_attempts ADD CONSTRAINT outbound_delivery_attempts_delivery_fkey
  FOREIGN KEY (delivery_id) REFERENCES outbound_deliveries (id) ON DELETE CASCADE;
-- Only the status webhooks are system-owned; every other target kind keeps its tenant.
ALTER TABLE outbound_deliveries ADD CONSTRAINT outbound_deliveries_owner
  CHECK (tenant_id IS NOT NULL OR target_kind = 'status-webhook');

-- The unsubscribe link goes into every notification, so its token is also kept sealed (secret
-- box); lookups use the hash. When the last confirmation mail went out (resend throttle).
ALTER TABLE status_email_subscriptions ADD COLUMN unsubscribe_token_sealed text;
ALTER TABLE status_email_subscriptions ADD COLUMN confirm_sent_at timestamptz;

-- The outbox is also the sending job's state: attempts, the next one, a lease while one is out.
ALTER TABLE status_email_outbox ADD COLUMN list_unsubscribe text;
ALTER TABLE status_email_outbox ADD COLUMN attempt_count integer NOT NULL DEFAULT 0;
ALTER TABLE status_email_outbox ADD COLUMN next_attempt_at timestamptz;
ALTER TABLE status_email_outbox ADD COLUMN lease_until timestamptz;
ALTER TABLE status_email_outbox ADD COLUMN last_error text;
ALTER TABLE status_email_outbox ADD COLUMN failed_at timestamptz;
CREATE INDEX status_email_outbox_due ON status_email_outbox (next_attempt_at)
  WHERE sent_at IS NULL AND failed_at IS NULL;
