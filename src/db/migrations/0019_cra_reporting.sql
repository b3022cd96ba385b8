-- CRA reporting (docs/cra.md#article-14-clocks, #report-packs): the Article 14 clocks, the
-- severe incidents a person records, and report packs. Every table is tenant-owned: tenant_id
-- defaults to the scoped transaction's tenant, row-level security is enabled and forced.
-- Products are cra_products (migration 0018).

CREATE TABLE cra_incidents (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  product_id uuid NOT NULL,
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- Why it is severe (Art. 14(5)): 'data_or_functions' (a) and/or 'malicious_code' (b).
  severe_because text[] NOT NULL,
  -- When the manufacturer became aware: the early warning and notification clocks start here.
  aware_at timestamptz NOT NULL,
  recorded_by_token_id uuid,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES cra_products (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX cra_incidents_by_product ON cra_incidents (tenant_id, product_id, aware_at DESC);

CREATE TABLE cra_clocks (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  product_id uuid NOT NULL,
  -- 'vulnerability' (actively exploited, Art. 14(2)) | 'incident' (severe, Art. 14(4))
  trigger text NOT NULL,
  vulnerability_id uuid REFERENCES vulnerabilities (id),
  exposure_id uuid,
  incident_id uuid,
  -- 'early_warning' | 'notification' | 'final_report'
  kind text NOT NULL,
  started_at timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  -- 'running' | 'met' | 'missed'
  state text NOT NULL DEFAULT 'running',
  -- What started it when not awareness: the corrective measure (final report of a vulnerability).
  start_note text,
  started_by_token_id uuid,
  -- When the "falls due" alert event was emitted, and when the clock was found missed.
  due_alerted_at timestamptz,
  missed_at timestamptz,
  -- The submission recorded against the clock.
  submitted_at timestamptz,
  submission_reference text,
  submission_note text,
  submitted_by_token_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES cra_products (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, incident_id) REFERENCES cra_incidents (tenant_id, id) ON DELETE CASCADE,
  CHECK (trigger IN ('vulnerability', 'incident')),
  CHECK (kind IN ('early_warning', 'notification', 'final_report')),
  CHECK (state IN ('running', 'met', 'missed')),
  CHECK ((trigger = 'vulnerability') = (vulnerability_id IS NOT NULL)),
  CHECK ((trigger = 'incident') = (incident_id IS NOT NULL))
);
-- One clock of each kind per exploited vulnerability of a product, and per incident.
CREATE UNIQUE INDEX cra_clocks_vulnerability
  ON cra_clocks (tenant_id, product_id, vulnerability_id, kind) WHERE trigger = 'vulnerability';
CREATE UNIQUE INDEX cra_clocks_incident
  ON cra_clocks (tenant_id, incident_id, kind) WHERE trigger = 'incident';
CREATE INDEX cra_clocks_running ON cra_clocks (tenant_id, due_at) WHERE state = 'running';
CREATE INDEX cra_clocks_by_product ON cra_clocks (tenant_id, product_id, started_at);
-- The sweep finds running clocks across tenants (system connection).
CREATE INDEX cra_clocks_running_all ON cra_clocks (due_at) WHERE state = 'running';

CREATE TABLE cra_report_packs (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  product_id uuid NOT NULL,
  -- 'queued' | 'generating' | 'ready' | 'failed'
  state text NOT NULL DEFAULT 'queued',
  requested_by_token_id uuid,
  -- The pack's content as of generation (JSON; markdown and CSV are rendered from it) and the PDF.
  content jsonb,
  pdf bytea,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES cra_products (tenant_id, id) ON DELETE CASCADE,
  CHECK (state IN ('queued', 'generating', 'ready', 'failed'))
);
CREATE INDEX cra_report_packs_by_product ON cra_report_packs (tenant_id, product_id, created_at DESC);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['cra_incidents', 'cra_clocks', 'cra_report_packs'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;
