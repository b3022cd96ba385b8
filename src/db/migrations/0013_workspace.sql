-- The tenant's own lifecycle (docs/workspace.md): API call counts for usage, deletion records
-- that outlive the tenant, data exports, onboarding progress, and the analytics rollups.

-- Set when the owner asks for deletion: the tenant's tokens are revoked in the same transaction
-- and the purge job removes its rows; a second request finds it gone (404).
ALTER TABLE tenants ADD COLUMN IF NOT EXISTS deletion_requested_at timestamptz;

-- API calls per tenant and minute, flushed by the token usage tracker (one upsert per interval).
CREATE TABLE tenant_api_calls (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  minute timestamptz NOT NULL,
  calls integer NOT NULL,
  PRIMARY KEY (tenant_id, minute)
);

-- A deletion request. No tenant_id column on purpose: it is the system's record that the tenant
-- existed and was purged, so it must survive the purge (which removes every tenant_id row).
CREATE TABLE tenant_deletions (
  id uuid PRIMARY KEY,
  deleted_tenant_id uuid NOT NULL,
  requested_by_token_id uuid NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  rows_deleted bigint NOT NULL DEFAULT 0
);
CREATE INDEX tenant_deletions_by_tenant ON tenant_deletions (deleted_tenant_id);

-- A data export: one repeatable-read snapshot of every tenant table as NDJSON in a zip.
CREATE TABLE tenant_data_exports (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  -- 'queued' | 'running' | 'completed' | 'failed'
  state text NOT NULL DEFAULT 'queued',
  requested_by_token_id uuid NOT NULL,
  archive bytea,
  archive_bytes bigint,
  archive_sha256 text,
  manifest jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  -- After this the archive is no longer served and the expiry job deletes the row.
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX tenant_data_exports_recent ON tenant_data_exports (tenant_id, created_at DESC);
CREATE INDEX tenant_data_exports_expiry ON tenant_data_exports (expires_at);

-- Onboarding: the steps the tenant chose to skip. Which steps are done is computed from stored
-- state (src/domains/onboarding/state-machine.ts), never stored twice.
CREATE TABLE onboarding_progress (
  tenant_id uuid PRIMARY KEY DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  skipped_steps text[] NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now()
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['tenant_api_calls', 'tenant_data_exports', 'onboarding_progress']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;

-- Analytics rollups (docs/workspace.md#dashboards-and-trends). The current state per repository
-- and ecosystem; ecosystem '*' is the repository's own row (drift totals are per repository).
CREATE TABLE analytics_repository_state (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  repository_id uuid NOT NULL,
  ecosystem text NOT NULL,
  dependencies integer NOT NULL DEFAULT 0,
  direct integer NOT NULL DEFAULT 0,
  -- Unresolved exposures (open, investigating, affected) by severity of their vulnerability.
  exposures_critical integer NOT NULL DEFAULT 0,
  exposures_high integer NOT NULL DEFAULT 0,
  exposures_medium integer NOT NULL DEFAULT 0,
  exposures_low integer NOT NULL DEFAULT 0,
  exposures_unrated integer NOT NULL DEFAULT 0,
  -- Exposures by status: {"open": 3, "fixed": 1, ...}
  exposures_by_status jsonb NOT NULL DEFAULT '{}'::jsonb,
  libyear double precision NOT NULL DEFAULT 0,
  major_behind integer NOT NULL DEFAULT 0,
  minor_behind integer NOT NULL DEFAULT 0,
  patch_behind integer NOT NULL DEFAULT 0,
  deprecated integer NOT NULL DEFAULT 0,
  end_of_life integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, repository_id, ecosystem),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);

-- One row per day and scope: repository_id is the all-repositories sentinel (all zeros) or one
-- repository; ecosystem is '' (all) or one ecosystem. Gauges as of the day's last refresh, flows
-- counted within the day (UTC).
CREATE TABLE analytics_daily (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  day date NOT NULL,
  repository_id uuid NOT NULL,
  ecosystem text NOT NULL,
  dependencies integer NOT NULL DEFAULT 0,
  direct integer NOT NULL DEFAULT 0,
  libyear double precision,
  exposures_unresolved integer NOT NULL DEFAULT 0,
  exposures_critical integer NOT NULL DEFAULT 0,
  violations_open integer NOT NULL DEFAULT 0,
  exposures_opened integer NOT NULL DEFAULT 0,
  exposures_fixed integer NOT NULL DEFAULT 0,
  -- Per severity: {"critical": {"count": 2, "seconds": 86400}, ...} of exposures fixed that day.
  fixes jsonb NOT NULL DEFAULT '{}'::jsonb,
  scans integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, repository_id, ecosystem, day)
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['analytics_repository_state', 'analytics_daily']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;
