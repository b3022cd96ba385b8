-- Repositories, source-control connections, scans and their dependency graph, the shared package
-- catalogue, and the job outbox. Tenant tables follow 0001's pattern: tenant_id first, RLS FORCEd,
-- driftwatch_app limited to the current tenant, the owner (system connection) let through.

CREATE TABLE source_control_connections (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  -- 'scm-a' | 'scm-b' | 'scm-c' | 'scm-d' | 'git'
  provider text NOT NULL,
  name text NOT NULL,
  -- The provider's API base (self-hosted instances); null for the generic git connection.
  base_url text,
  -- The provider's id for what was connected (installation id, group, workspace, organisation).
  external_id text,
  account_name text,
  -- 'active' | 'suspended' | 'revoked' | 'error': only active connections are usable (409 otherwise).
  status text NOT NULL DEFAULT 'active',
  status_reason text,
  -- AES-256-GCM sealed JSON (src/security/secret-box.ts); never returned, never logged.
  credentials_sealed text,
  webhook_secret_sealed text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX source_control_connections_external
  ON source_control_connections (tenant_id, provider, external_id) WHERE external_id IS NOT NULL;
-- Push ingest finds candidate connections by provider before it knows the tenant.
CREATE INDEX source_control_connections_by_provider
  ON source_control_connections (provider, external_id);

CREATE TABLE repositories (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  connection_id uuid,
  provider text NOT NULL,
  -- The provider's repository id (null for clone-URL imports).
  external_id text,
  name text NOT NULL,
  full_name text NOT NULL,
  clone_url text NOT NULL,
  web_url text,
  default_branch text NOT NULL DEFAULT 'main',
  workspace_id uuid,
  team_id uuid,
  -- 'low' | 'medium' | 'high' | 'critical'
  business_criticality text,
  -- 'active' | 'maintenance' | 'deprecated' | 'archived'
  lifecycle_status text NOT NULL DEFAULT 'active',
  -- SSH deploy key for ssh clone URLs, sealed.
  deploy_key_sealed text,
  last_scan_id uuid,
  last_scanned_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, connection_id)
    REFERENCES source_control_connections (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX repositories_external
  ON repositories (tenant_id, connection_id, external_id) WHERE external_id IS NOT NULL;
CREATE UNIQUE INDEX repositories_clone_url ON repositories (tenant_id, clone_url);
CREATE INDEX repositories_by_external ON repositories (provider, external_id);

CREATE TABLE scans (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  repository_id uuid NOT NULL,
  -- 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' (docs/design.md#states)
  state text NOT NULL DEFAULT 'queued',
  -- 'manual' | 'push' | 'sbom' | 'retry'
  trigger text NOT NULL,
  branch text,
  commit_sha text,
  queued_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  -- Set while running and refreshed by the worker; a stale heartbeat means the process died.
  heartbeat_at timestamptz,
  attempt integer NOT NULL DEFAULT 0,
  error text,
  -- {"npm": 120, "PyPI": 14}
  counts_by_ecosystem jsonb NOT NULL DEFAULT '{}'::jsonb,
  dependency_count integer NOT NULL DEFAULT 0,
  file_count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX scans_recent ON scans (tenant_id, queued_at DESC, id DESC);
CREATE INDEX scans_by_repository ON scans (tenant_id, repository_id, queued_at DESC);
-- At most one queued or running scan per repository: the 409 of a second trigger.
CREATE UNIQUE INDEX scans_one_active
  ON scans (tenant_id, repository_id) WHERE state IN ('queued', 'running');

CREATE TABLE scan_logs (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  scan_id uuid NOT NULL,
  logged_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- 'info' | 'warn' | 'error'
  level text NOT NULL,
  step text NOT NULL,
  message text NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, scan_id) REFERENCES scans (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX scan_logs_by_scan ON scan_logs (tenant_id, scan_id, logged_at DESC, id DESC);

-- The shared package catalogue: one row per (ecosystem, normalised name), identified by a purl
-- without version. No tenant: every tenant reads it; tenant state about packages lives elsewhere.
CREATE TABLE packages (
  id uuid PRIMARY KEY,
  ecosystem text NOT NULL,
  name text NOT NULL,
  purl text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (ecosystem, name)
);
CREATE UNIQUE INDEX packages_purl ON packages (purl);

-- The dependencies of a repository as its latest completed scan (or SBOM import) found them.
CREATE TABLE repository_dependencies (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  repository_id uuid NOT NULL,
  scan_id uuid NOT NULL,
  package_id uuid NOT NULL REFERENCES packages (id),
  ecosystem text NOT NULL,
  name text NOT NULL,
  -- Exact version when resolved, the declared range when declared, null when unpinned.
  version text,
  -- 'resolved' | 'declared' | 'unpinned' (src/ecosystems/types.ts Resolution)
  resolution text NOT NULL,
  purl text NOT NULL,
  scope text NOT NULL,
  direct boolean NOT NULL,
  -- Manifest or lockfile path relative to the repository root.
  file text NOT NULL,
  line integer,
  -- {"kind":"registry"} | {"kind":"git","url":...,"ref":...} | ... (DependencySource)
  source jsonb NOT NULL DEFAULT '{"kind":"registry"}'::jsonb,
  -- Names of the packages that depend on this one, as the file recorded them.
  parents text[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX repository_dependencies_by_repository
  ON repository_dependencies (tenant_id, repository_id, ecosystem, name);
CREATE INDEX repository_dependencies_by_package ON repository_dependencies (tenant_id, package_id);

-- Transactional outbox (docs/design.md#jobs): a job is written in the same transaction as the row that
-- asks for it and relayed to pg-boss after commit, so neither can exist without the other.
CREATE TABLE job_outbox (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  job_name text NOT NULL,
  correlation_id text,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX job_outbox_order ON job_outbox (created_at, id);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['source_control_connections', 'repositories', 'scans', 'scan_logs',
    'repository_dependencies', 'job_outbox']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;

GRANT SELECT, INSERT ON packages TO driftwatch_app;
