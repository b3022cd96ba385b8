-- Warehouse export (docs/workspace.md#warehouse-export): destinations a tenant names, the runs
-- that append the tenant's facts to them, and one watermark per destination and fact table so
-- a run sends only the rows the destination does not have yet.

CREATE TABLE analytics_export_destinations (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  -- 'postgresql' | 'https'
  kind text NOT NULL,
  name text NOT NULL,
  -- What callers see: the https URL, or the connection string without its password.
  target text NOT NULL,
  -- The connection string (postgresql) or the Standard Webhooks signing secret (https), sealed
  -- with the service's secret box.
  secret_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_run_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);

CREATE TABLE analytics_export_runs (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  destination_id uuid NOT NULL,
  -- 'queued' | 'running' | 'succeeded' | 'failed'
  state text NOT NULL DEFAULT 'queued',
  -- 'manual' | 'schedule'
  trigger text NOT NULL,
  rows bigint NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  duration_ms integer,
  -- Rows per fact table: {"scans": 12, ...}
  tables jsonb NOT NULL DEFAULT '{}'::jsonb,
  errors text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, destination_id)
    REFERENCES analytics_export_destinations (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX analytics_export_runs_recent
  ON analytics_export_runs (tenant_id, destination_id, created_at DESC, id DESC);

-- The last row a destination has of each fact table: (at, id) of the row, in key order.
CREATE TABLE analytics_export_watermarks (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  destination_id uuid NOT NULL,
  fact text NOT NULL,
  last_at timestamptz NOT NULL,
  last_id text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, destination_id, fact),
  FOREIGN KEY (tenant_id, destination_id)
    REFERENCES analytics_export_destinations (tenant_id, id) ON DELETE CASCADE
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['analytics_export_destinations', 'analytics_export_runs',
    'analytics_export_watermarks']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;
