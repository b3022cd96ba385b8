-- The public status surface, issue 26 (docs/status.md).

-- Status webhooks: one active subscription per URL (the newest replaces the one before), and
-- who created each (a key of the client's address) so creations per client can be capped.
ALTER TABLE status_webhook_subscriptions ADD COLUMN client_key text;
UPDATE status_webhook_subscriptions AS older
   SET status = 'disabled', disabled_at = COALESCE(older.disabled_at, now())
 WHERE older.status = 'active'
   AND EXISTS (
     SELECT 1 FROM status_webhook_subscriptions AS newer
      WHERE newer.url = older.url AND newer.status = 'active'
        AND (newer.created_at, newer.id) > (older.created_at, older.id));
CREATE UNIQUE INDEX status_webhook_subscriptions_active_url
  ON status_webhook_subscriptions (url) WHERE status = 'active';
CREATE INDEX status_webhook_subscriptions_by_client
  ON status_webhook_subscriptions (client_key, created_at) WHERE client_key IS NOT NULL;

-- What the last evaluation measured, before the agreement rule (measured_state is the state
-- consecutive evaluations agreed on): the components' `measuredState`.
ALTER TABLE status_components ADD COLUMN raw_state text;
