-- Alert rules and alerts (docs/alerts.md). A rule says which events of one kind alert, with
-- filters, a dedupe window and channels (integration ids); alerts are raised from domain events
-- by the alerts jobs, never by polling tables.

CREATE TABLE alert_rules (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  name text NOT NULL,
  -- A kind of the registry (src/domains/alerts/kinds): which event the rule listens to.
  kind text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- Filters; an empty array means every repository / ecosystem.
  repository_ids uuid[] NOT NULL DEFAULT '{}',
  ecosystems text[] NOT NULL DEFAULT '{}',
  min_severity text,
  -- Kind-specific thresholds, validated by the kind.
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  dedupe_window_minutes integer NOT NULL,
  -- Integration ids the rule's alerts are delivered to.
  channels uuid[] NOT NULL DEFAULT '{}',
  created_by_token_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX alert_rules_by_kind ON alert_rules (tenant_id, kind) WHERE enabled;

CREATE TABLE alerts (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  -- The rule that raised it; kept (with its name) when the rule is deleted later.
  rule_id uuid NOT NULL,
  rule_name text NOT NULL,
  kind text NOT NULL,
  -- null when the subject has no known severity (an advisory without a rating)
  severity text,
  -- 'open' | 'acknowledged' (src/domains/alerts/state-machine.ts)
  status text NOT NULL DEFAULT 'open',
  -- What the alert is about, within its kind (an exposure id, a package id, a scan id...).
  subject text NOT NULL,
  title text NOT NULL,
  repository_ids uuid[] NOT NULL DEFAULT '{}',
  package_id uuid,
  payload jsonb NOT NULL,
  raised_at timestamptz NOT NULL DEFAULT now(),
  acknowledged_at timestamptz,
  acknowledged_by_token_id uuid,
  acknowledgement_note text,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX alerts_recent ON alerts (tenant_id, raised_at DESC, id DESC);
CREATE INDEX alerts_by_repository ON alerts USING gin (repository_ids);

-- The dedupe window: one row per (rule, subject) with when it last alerted. Raising is one
-- INSERT ... ON CONFLICT DO UPDATE ... WHERE quiet_until has passed, so two workers raising the
-- same subject at once cannot both win (the unique key and its row lock decide).
CREATE TABLE alert_dedupe (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  rule_id uuid NOT NULL,
  subject text NOT NULL,
  last_raised_at timestamptz NOT NULL,
  -- last_raised_at + the rule's window: the subject alerts again only after this.
  quiet_until timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, rule_id, subject),
  FOREIGN KEY (tenant_id, rule_id) REFERENCES alert_rules (tenant_id, id) ON DELETE CASCADE
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['alert_rules', 'alerts', 'alert_dedupe']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;
