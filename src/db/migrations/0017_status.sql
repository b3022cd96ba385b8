-- The public status surface (docs/status.md). Service-wide, not tenant data: no tenant column,
-- read and written through the system connection only.

-- Each component's current state with the hysteresis counters and the operator's override.
CREATE TABLE status_components (
  component text PRIMARY KEY,
  -- 'operational' | 'degraded' | 'outage' | 'unknown' (computed, after hysteresis)
  measured_state text NOT NULL,
  -- The state the last evaluations agree on that differs from measured_state, and how often.
  pending_state text,
  pending_count integer NOT NULL DEFAULT 0,
  measurement jsonb NOT NULL DEFAULT '{}'::jsonb,
  detail text NOT NULL DEFAULT '',
  -- 'operational' | 'degraded' | 'outage' | 'maintenance'; null: no override.
  override_state text,
  override_reason text,
  override_until timestamptz,
  changed_at timestamptz NOT NULL DEFAULT now(),
  evaluated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE status_incidents (
  id uuid PRIMARY KEY,
  title text NOT NULL,
  -- 'minor' | 'major' | 'critical' | 'maintenance'
  impact text NOT NULL,
  -- 'investigating' | 'identified' | 'monitoring' | 'resolved'
  status text NOT NULL,
  components text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz
);
CREATE INDEX status_incidents_recent ON status_incidents (created_at DESC);

CREATE TABLE status_incident_updates (
  id uuid PRIMARY KEY,
  incident_id uuid NOT NULL REFERENCES status_incidents (id) ON DELETE CASCADE,
  status text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX status_incident_updates_by_incident ON status_incident_updates (incident_id, created_at);

CREATE TABLE status_changelog (
  id uuid PRIMARY KEY,
  -- 'release' | 'change' | 'deprecation'
  kind text NOT NULL,
  title text NOT NULL,
  body text NOT NULL DEFAULT '',
  version text,
  published_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX status_changelog_recent ON status_changelog (published_at DESC);

-- E-mail subscribers: one row per normalised address; tokens stored as SHA-256 only.
CREATE TABLE status_email_subscriptions (
  id uuid PRIMARY KEY,
  email text NOT NULL UNIQUE,
  -- 'pending' | 'confirmed' | 'unsubscribed'
  state text NOT NULL,
  confirm_token_hash bytea UNIQUE,
  unsubscribe_token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  unsubscribed_at timestamptz
);

-- Messages written when no SMTP server is configured (and the record of those sent).
CREATE TABLE status_email_outbox (
  id uuid PRIMARY KEY,
  recipient text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX status_email_outbox_recent ON status_email_outbox (created_at DESC);

-- Webhook subscribers; deliveries go through outbound_deliveries (target kind 'status-webhook').
CREATE TABLE status_webhook_subscriptions (
  id uuid PRIMARY KEY,
  url text NOT NULL,
  secret_sealed text NOT NULL,
  unsubscribe_token_hash bytea NOT NULL UNIQUE,
  -- 'active' | 'disabled'
  status text NOT NULL DEFAULT 'active',
  created_at timestamptz NOT NULL DEFAULT now(),
  disabled_at timestamptz
);
